import { useExtensionState } from "../use-extension-state";

/** Whether the question this row asks is open: its options are then the answer buttons, not a list. */
export function useQuestionOpen(ts: number): boolean {
  return useExtensionState((state) => state.question?.id === ts);
}

/** A question's options under its text, once it is answered (while it is open they are the buttons below the list). */
export function OptionList({ options }: { options: readonly string[] | undefined }) {
  if (!options || options.length === 0) return null;
  return (
    <ul className="followup-options" aria-label="Options offered">
      {options.map((option, i) => (
        <li key={i}>{option}</li>
      ))}
    </ul>
  );
}
