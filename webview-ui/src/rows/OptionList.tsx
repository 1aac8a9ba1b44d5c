/** A question's options under its text; while it waits, they are also the buttons below the list. */
export function OptionList({ options }: { options: readonly string[] | undefined }) {
  if (!options || options.length === 0) return null;
  return (
    <ul className="followup-options">
      {options.map((option, i) => (
        <li key={i}>{option}</li>
      ))}
    </ul>
  );
}
