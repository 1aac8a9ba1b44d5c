import { useMemo } from "react";
import { classifyDiffLines } from "./search-replace-lines";
import { highlightCode, languageForPath } from "./highlight";

const SIGN = { marker: " ", removed: "-", added: "+", context: " " } as const;

/** SEARCH/REPLACE blocks with removed lines red and added lines green. */
export function SearchReplacePreview({ diff }: { diff: string }) {
  const lines = useMemo(() => classifyDiffLines(diff), [diff]);
  return (
    <pre className="diff-preview" data-testid="diff-preview">
      {lines.map((line, i) => (
        <div key={i} className={`diff-line diff-${line.kind}`}>
          <span className="diff-sign" aria-hidden="true">{SIGN[line.kind]}</span>
          {line.text || " "}
        </div>
      ))}
    </pre>
  );
}

/** The whole new content of a file, highlighted by its extension. */
export function NewContentPreview({ content, path }: { content: string; path: string | undefined }) {
  const html = useMemo(() => highlightCode(content, languageForPath(path)), [content, path]);
  return (
    <pre className="diff-preview new-content" data-testid="new-content-preview">
      <code className="hljs" dangerouslySetInnerHTML={{ __html: html }} />
    </pre>
  );
}
