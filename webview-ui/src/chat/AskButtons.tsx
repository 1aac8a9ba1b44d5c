import { useId } from "react";
import { VscodeButton } from "../components/vscode-elements";
import type { OpenQuestion } from "../../../src/shared/protocol";
import { useChatMessage } from "../use-extension-state";
import { askButtons, OFFERS_OPTIONS, type AskAction } from "./ask-buttons";

/**
 * The buttons of the open question: the answers the host lists for it. A button whose label does
 * not say what it does ("Finish with this plan") has its description under the buttons, which is
 * also the button's accessible description.
 */
export function AskButtons({ question, onPress }: { question: OpenQuestion; onPress: (action: AskAction) => void }) {
  const row = useChatMessage(question.id);
  const idPrefix = useId();
  const buttons = askButtons(question, row?.options);
  if (buttons.length === 0) return null;
  const noteId = (i: number) => `${idPrefix}-note-${i}`;
  return (
    <>
      <div className={`ask-buttons${OFFERS_OPTIONS.has(question.kind) ? " options" : ""}`} role="group" aria-label="Answer">
        {buttons.map((button, i) => (
          <VscodeButton key={i} secondary={!button.primary} aria-describedby={button.description ? noteId(i) : undefined} onClick={() => onPress(button.action)}>
            {button.label}
          </VscodeButton>
        ))}
      </div>
      {buttons.map((button, i) =>
        button.description ? (
          <p key={i} id={noteId(i)} className="ask-button-note">
            {button.description}
          </p>
        ) : null,
      )}
    </>
  );
}
