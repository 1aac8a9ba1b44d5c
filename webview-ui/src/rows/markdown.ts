/**
 * Model text to safe HTML: marked for Markdown, highlight.js for fenced code, DOMPurify last so
 * nothing the model writes can run script or reach outside the CSP.
 */
import DOMPurify from "dompurify";
import { Marked, type Tokens } from "marked";
import { escapeHtml, highlightCode } from "./highlight";

const marked = new Marked({
  gfm: true,
  breaks: false,
  renderer: {
    code({ text, lang }: Tokens.Code): string {
      const language = lang?.trim().split(/\s+/)[0];
      const cls = language ? ` language-${escapeHtml(language)}` : "";
      return `<pre class="code-block"><code class="hljs${cls}">${highlightCode(text, language)}</code></pre>\n`;
    },
  },
});

export function renderMarkdown(text: string): string {
  const html = marked.parse(text, { async: false });
  return DOMPurify.sanitize(html, {
    // Inline styles would need 'unsafe-inline'; forms and inputs have no business in a chat row.
    FORBID_ATTR: ["style"],
    FORBID_TAGS: ["style", "form", "input", "button", "textarea", "select"],
  });
}
