/**
 * A file or folder name as it goes into Tandem's own text (listings, environment details, @-mention
 * headers): always one line that cannot pose as Tandem's words. A name holding a line break, another
 * control character or a bidi override is shown quoted, with those characters escaped as in
 * JSON (`"a\nSYSTEM: b"`); any other name stays as it is, so the model uses it as written.
 */

/** A character that breaks a line, acts on a terminal or reorders what a line shows (the one list; mention-block.ts escapes them too). */
// eslint-disable-next-line no-control-regex
export const UNSAFE_CHARACTER = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
const NOT_ESCAPED_BY_JSON = /[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** `name` as it is, or quoted and escaped when it holds an unsafe character or matches `alsoQuote`. */
export function oneLineName(name: string, alsoQuote?: RegExp): string {
  if (!UNSAFE_CHARACTER.test(name) && !alsoQuote?.test(name)) return name;
  return JSON.stringify(name).replace(NOT_ESCAPED_BY_JSON, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
