/**
 * highlight.js core with a handful of languages, to keep the bundle small. Unknown languages are
 * shown escaped and unhighlighted.
 */
import hljs from "highlight.js/lib/core";
import bash from "highlight.js/lib/languages/bash";
import css from "highlight.js/lib/languages/css";
import diff from "highlight.js/lib/languages/diff";
import go from "highlight.js/lib/languages/go";
import java from "highlight.js/lib/languages/java";
import javascript from "highlight.js/lib/languages/javascript";
import json from "highlight.js/lib/languages/json";
import markdown from "highlight.js/lib/languages/markdown";
import python from "highlight.js/lib/languages/python";
import rust from "highlight.js/lib/languages/rust";
import sql from "highlight.js/lib/languages/sql";
import typescript from "highlight.js/lib/languages/typescript";
import xml from "highlight.js/lib/languages/xml";
import yaml from "highlight.js/lib/languages/yaml";

const languages = { bash, css, diff, go, java, javascript, json, markdown, python, rust, sql, typescript, xml, yaml };
for (const [name, language] of Object.entries(languages)) hljs.registerLanguage(name, language);

const EXTENSIONS: Record<string, string> = {
  sh: "bash", bash: "bash", zsh: "bash", css: "css", scss: "css", diff: "diff", patch: "diff", go: "go",
  java: "java", js: "javascript", mjs: "javascript", cjs: "javascript", jsx: "javascript", json: "json",
  md: "markdown", py: "python", rs: "rust", sql: "sql", ts: "typescript", tsx: "typescript", mts: "typescript",
  cts: "typescript", html: "xml", xml: "xml", svg: "xml", yaml: "yaml", yml: "yaml",
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** HTML for `code`, highlighted when `language` (a name, alias or file extension) is registered. */
export function highlightCode(code: string, language: string | undefined): string {
  const name = language ? (hljs.getLanguage(language) ? language : EXTENSIONS[language.toLowerCase()]) : undefined;
  if (!name || !hljs.getLanguage(name)) return escapeHtml(code);
  return hljs.highlight(code, { language: name, ignoreIllegals: true }).value;
}

/** The highlight language for a file path, from its extension. */
export function languageForPath(path: string | undefined): string | undefined {
  const extension = path?.split(".").pop();
  return extension ? EXTENSIONS[extension.toLowerCase()] : undefined;
}
