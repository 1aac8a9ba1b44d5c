import { useMemo } from "react";
import { renderMarkdown } from "./markdown";

/** Sanitized Markdown; re-parsed only when the text changes. */
export function Markdown({ text, streaming = false }: { text: string | undefined; streaming?: boolean }) {
  const html = useMemo(() => renderMarkdown(text ?? ""), [text]);
  return (
    <div className={`markdown${streaming ? " streaming" : ""}`} dangerouslySetInnerHTML={{ __html: html }} />
  );
}
