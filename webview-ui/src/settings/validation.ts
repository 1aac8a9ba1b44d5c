/** Checks for settings text fields: each returns a message for the person, or undefined when fine. */

export function checkUrl(text: string): string | undefined {
  if (text === "") return undefined;
  try {
    const url = new URL(text);
    if (url.protocol === "http:" || url.protocol === "https:") return undefined;
    return `The base URL must start with http:// or https:// (got ${url.protocol}).`;
  } catch {
    return `"${text}" is not a URL. Example: https://api.example.com/v1`;
  }
}

/** A whole number of at least `min`; empty text is allowed when `optional`. */
export function checkWholeNumber(text: string, min: number, optional: boolean): string | undefined {
  if (text === "") return optional ? undefined : "Enter a number.";
  if (!/^\d+$/.test(text)) return `"${text}" is not a whole number.`;
  if (Number(text) < min) return `Enter ${min} or more.`;
  return undefined;
}

export function checkThinkingBudget(text: string): string | undefined {
  const problem = checkWholeNumber(text, 0, true);
  if (problem) return problem;
  const value = Number(text || "0");
  return value !== 0 && value < 1024 ? "A thinking budget is 0 (off) or at least 1024 tokens." : undefined;
}

/** US dollars, such as 2.50; empty is no cap. */
export function checkDollars(text: string): string | undefined {
  if (text === "") return undefined;
  return /^\d+(?:\.\d{1,2})?$/.test(text) ? undefined : `"${text}" is not an amount in dollars, such as 2.50.`;
}
