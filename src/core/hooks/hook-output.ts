/**
 * What a hook may print: nothing, or exactly one JSON object with `cancel` (boolean),
 * `contextModification` (text for the model's next message) and `errorMessage` (text for the
 * person), all optional. Anything else (not JSON, several values, another type, an unknown field
 * such as a misspelt "cancell") is a problem said in the chat, and the hook counts as having said
 * nothing: a typo must not silently pass for a decision.
 */

export interface HookVerdict {
  readonly cancel: boolean;
  readonly contextModification?: string;
  readonly errorMessage?: string;
}

export type ParsedOutput = { readonly verdict: HookVerdict } | { readonly problem: string };

const FIELDS: Readonly<Record<string, "boolean" | "string">> = { cancel: "boolean", contextModification: "string", errorMessage: "string" };

export function parseHookOutput(stdout: string): ParsedOutput {
  const text = stdout.trim();
  if (!text) return { verdict: { cancel: false } };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const several = /after JSON/.test(String(error));
    return { problem: several ? "it printed more than one JSON value; print one object" : `its output is not JSON (${excerpt(text)})` };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { problem: `it printed ${Array.isArray(value) ? "an array" : JSON.stringify(value)}, not a JSON object` };
  }
  for (const [name, field] of Object.entries(value)) {
    const type = FIELDS[name];
    if (!type) return { problem: `its output has an unknown field "${name}" (known: ${Object.keys(FIELDS).join(", ")})` };
    if (typeof field !== type) return { problem: `"${name}" must be a ${type}, not ${JSON.stringify(field)}` };
  }
  const fields = value as { cancel?: boolean; contextModification?: string; errorMessage?: string };
  return {
    verdict: {
      cancel: fields.cancel === true,
      ...(fields.contextModification?.trim() ? { contextModification: fields.contextModification } : {}),
      ...(fields.errorMessage?.trim() ? { errorMessage: fields.errorMessage } : {}),
    },
  };
}

function excerpt(text: string): string {
  const line = text.split("\n")[0] ?? "";
  return JSON.stringify(line.length > 80 ? `${line.slice(0, 80)}…` : line);
}
