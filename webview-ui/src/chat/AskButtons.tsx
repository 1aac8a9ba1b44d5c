import { VscodeButton } from "../components/vscode-elements";
import type { AskMessage } from "../../../src/shared/messages";
import { askButtons, type AskAction } from "./ask-buttons";

/** The buttons of the open ask; disabled while the ask is still streaming. */
export function AskButtons({ ask, onPress }: { ask: AskMessage; onPress: (action: AskAction) => void }) {
  const buttons = askButtons(ask);
  if (buttons.length === 0) return null;
  const disabled = Boolean(ask.partial);
  return (
    <div className={`ask-buttons${ask.ask === "followup" ? " options" : ""}`} role="group" aria-label="Answer">
      {buttons.map((button, i) => (
        <VscodeButton
          key={i}
          secondary={!button.primary}
          disabled={disabled}
          onClick={() => {
            if (!disabled) onPress(button.action);
          }}
        >
          {button.label}
        </VscodeButton>
      ))}
    </div>
  );
}
