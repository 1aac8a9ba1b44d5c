import { Fragment, useLayoutEffect, useRef, type ReactNode, type RefObject } from "react";
import { mentionSpans } from "../../../src/shared/mention-syntax";

/**
 * The layer behind the message box that marks its @-mentions. The textarea stays the real input
 * (its own text, caret, selection, IME and keys) with a transparent background; this layer lies
 * under it with the same box, font and wrapping, draws the same text in transparent ink and only
 * the marks' backgrounds show through. It is hidden from assistive technology (the textarea says
 * it all) and follows the textarea's scrolling.
 */
export function MentionHighlight({ text, layer }: { text: string; layer: RefObject<HTMLDivElement | null> }) {
  return (
    <div ref={layer} className="chat-input-highlight" aria-hidden="true">
      {highlighted(text)}
    </div>
  );
}

/** A ref for the layer, and the scroll handler for the textarea; the layer also follows each new text. */
export function useHighlightScroll(textarea: RefObject<HTMLTextAreaElement | null>, text: string) {
  const layer = useRef<HTMLDivElement>(null);
  const follow = () => {
    if (layer.current && textarea.current) layer.current.scrollTop = textarea.current.scrollTop;
  };
  useLayoutEffect(follow, [text, textarea]);
  return { layer, onScroll: follow };
}

/** The text in pieces, each mention the syntax reads (src/shared/mention-syntax.ts) in a <mark>. */
export function highlighted(text: string): ReactNode[] {
  const parts: ReactNode[] = [];
  let at = 0;
  for (const { start, end } of mentionSpans(text)) {
    if (start > at) parts.push(<Fragment key={`t${at}`}>{text.slice(at, start)}</Fragment>);
    parts.push(
      <mark key={`m${start}`} className="mention-highlight">
        {text.slice(start, end)}
      </mark>,
    );
    at = end;
  }
  // A textarea shows a line after a trailing line break; a div shows it only with something on it.
  parts.push(<Fragment key={`t${at}`}>{`${text.slice(at)}${text.endsWith("\n") ? " " : ""}`}</Fragment>);
  return parts;
}
