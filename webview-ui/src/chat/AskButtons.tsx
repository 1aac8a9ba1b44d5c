import { VscodeButton } from "../components/vscode-elements";
import type { OpenQuestion } from "../../../src/shared/protocol";
import { useChatMessage } from "../use-extension-state";
import { askButtons, OFFERS_OPTIONS, type AskAction } from "./ask-buttons";

/** The buttons of the open question: the answers the host lists for it. */
export function AskButtons({ question, onPress }: { question: OpenQuestion; onPress: (action: AskAction) => void }) {
  const row = useChatMessage(question.id);
  const buttons = askButtons(question, row?.options);
  if (buttons.length === 0) return null;
  return (
    <div className={`ask-buttons${OFFERS_OPTIONS.has(question.kind) ? " options" : ""}`} role="group" aria-label="Answer">
      {buttons.map((button, i) => (
        <VscodeButton key={i} secondary={!button.primary} onClick={() => onPress(button.action)}>
          {button.label}
        </VscodeButton>
      ))}
    </div>
  );
}
