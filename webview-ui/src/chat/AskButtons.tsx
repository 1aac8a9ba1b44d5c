import { useEffect, useId, useRef, type RefObject } from "react";
import { VscodeButton } from "../components/vscode-elements";
import type { OpenQuestion } from "../../../src/shared/protocol";
import { useChatMessage, useExtensionState } from "../use-extension-state";
import { askButtons, OFFERS_OPTIONS, type AskAction } from "./ask-buttons";

/**
 * The buttons of the open question: the answers the host lists for it. A button whose label does
 * not say what it does ("Finish with this plan") has its description under the buttons, which is
 * also the button's accessible description. A notification's "Show" moves the keyboard to the
 * first answer, so the person can answer at once.
 */
export function AskButtons({ question, onPress }: { question: OpenQuestion; onPress: (action: AskAction) => void }) {
  const row = useChatMessage(question.id);
  const idPrefix = useId();
  const group = useRef<HTMLDivElement>(null);
  useFocusRequests(question, group);
  const buttons = askButtons(question, row?.options);
  if (buttons.length === 0) return null;
  const noteId = (i: number) => `${idPrefix}-note-${i}`;
  return (
    <>
      <div ref={group} className={`ask-buttons${OFFERS_OPTIONS.has(question.kind) ? " options" : ""}`} role="group" aria-label="Answer">
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

/** Focuses the first answer when the host asks for this question (each request once). */
function useFocusRequests(question: OpenQuestion, group: RefObject<HTMLDivElement | null>): void {
  const request = useExtensionState((state) => state.questionFocus);
  const handled = useRef(0);
  useEffect(() => {
    if (!request || request.seq === handled.current || request.questionId !== question.id) return;
    handled.current = request.seq;
    group.current?.querySelector<HTMLElement>("vscode-button")?.focus();
  }, [request, question.id, group]);
}
