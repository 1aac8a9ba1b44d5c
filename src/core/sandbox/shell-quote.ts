/** One POSIX shell word that stands for `text` exactly: single quotes, with each ' written as '\''. */
export function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}
