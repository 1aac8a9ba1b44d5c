/**
 * A tool's parameters, declared once: the system prompt, the XML grammar and the native specs
 * describe them, and the executor reads the model's text into typed values with them before the
 * tool sees the call. A bad value is the model's mistake, and the error names the parameter.
 */
import { formatResponse } from "../../prompts/responses";
import { resolveToolPath, type ResolvedToolPath } from "../../files/paths";
import { ToolError } from "../../files/tool-error";
import type { WorkspaceRoots } from "../../util/workspace-roots";

export interface ParamSpec<N extends string = string, T = unknown, R extends boolean = boolean> {
  readonly name: N;
  readonly required: R;
  /** One line for the system prompt. */
  readonly description: string;
  /** The value of the model's text, which is never blank (a blank optional parameter is absent). */
  read(text: string, roots: WorkspaceRoots): T | Promise<T>;
}

/** The typed values a tool receives: required parameters always present, optional ones perhaps not. */
export type ParamValues<S extends readonly ParamSpec[]> = {
  readonly [P in S[number] as P["name"]]: P extends ParamSpec<string, infer T, infer R> ? (R extends true ? T : T | undefined) : never;
};

interface Presence<R extends boolean> {
  readonly required?: R;
}

interface NumberRange {
  /** Only whole numbers. */
  readonly whole?: boolean;
  readonly min?: number;
  /** Exclusive lower bound. */
  readonly above?: number;
  readonly max?: number;
  /** Named in the error: "a number of seconds". */
  readonly unit?: string;
}

function spec<N extends string, T, R extends boolean>(name: N, description: string, presence: Presence<R>, read: ParamSpec<N, T, R>["read"]): ParamSpec<N, T, R> {
  return { name, description, required: (presence.required ?? false) as R, read };
}

function invalid(message: string): ToolError {
  return new ToolError("invalid_param", message);
}

export const param = {
  /** Text as the model wrote it. */
  text<const N extends string, const R extends boolean = false>(name: N, description: string, presence: Presence<R> = {}): ParamSpec<N, string, R> {
    return spec(name, description, presence, (text) => text);
  },

  /** A file or folder: resolved against the workspace's folders, with where it really lands (`paths.ts`). */
  path<const N extends string, const R extends boolean = false>(name: N, description: string, presence: Presence<R> = {}): ParamSpec<N, ResolvedToolPath, R> {
    return spec(name, description, presence, (text, roots) => resolveToolPath(roots, text));
  },

  /** "true" or "false", in any case. */
  boolean<const N extends string, const R extends boolean = false>(name: N, description: string, presence: Presence<R> = {}): ParamSpec<N, boolean, R> {
    return spec(name, description, presence, (text) => {
      const value = text.trim().toLowerCase();
      if (value === "true" || value === "false") return value === "true";
      throw invalid(`${name} must be "true" or "false"; got "${text}".`);
    });
  },

  number<const N extends string, const R extends boolean = false>(name: N, description: string, range: NumberRange & Presence<R> = {}): ParamSpec<N, number, R> {
    return spec(name, description, range, (text) => {
      const shape = range.whole ? /^-?\d+$/ : /^-?\d+(\.\d+)?$/;
      const value = shape.test(text.trim()) ? Number(text.trim()) : Number.NaN;
      if (Number.isFinite(value) && (!range.whole || Number.isSafeInteger(value)) && withinRange(value, range)) return value;
      throw invalid(`${name} must be ${range.whole ? "a whole number" : "a number"}${range.unit ? ` of ${range.unit}` : ""} ${describeRange(range)}; got "${text}".`);
    });
  },

  /** One of a few words, in any case. */
  choice<const N extends string, const C extends string, const R extends boolean = false>(
    name: N,
    description: string,
    choices: readonly C[],
    presence: Presence<R> = {},
  ): ParamSpec<N, C, R> {
    return spec(name, description, presence, (text) => {
      const value = text.trim().toLowerCase();
      const chosen = choices.find((choice) => choice === value);
      if (chosen !== undefined) return chosen;
      throw invalid(`${name} must be ${choices.map((c) => `"${c}"`).join(" or ")}; got "${text}".`);
    });
  },

  /** JSON of a given shape; `shape` describes it for the model ("a JSON array of strings"). */
  json<const N extends string, T, const R extends boolean = false>(
    name: N,
    description: string,
    expected: { readonly shape: string; fits(value: unknown): value is T } & Presence<R>,
  ): ParamSpec<N, T, R> {
    return spec(name, description, expected, (text) => {
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch (error) {
        throw invalid(`${name} must be ${expected.shape}; it is not valid JSON (${(error as Error).message}).`);
      }
      if (!expected.fits(value)) throw invalid(`${name} must be ${expected.shape}.`);
      return value;
    });
  },
};

function withinRange(value: number, range: NumberRange): boolean {
  return (range.min === undefined || value >= range.min) && (range.above === undefined || value > range.above) && (range.max === undefined || value <= range.max);
}

function describeRange(range: NumberRange): string {
  const bounds = [range.min !== undefined ? `from ${range.min}` : "", range.above !== undefined ? `above ${range.above}` : "", range.max !== undefined ? `at most ${range.max}` : ""].filter(Boolean);
  if (bounds.length === 1 && range.min !== undefined) return `from ${range.min} up`;
  return bounds.join(" and ");
}

/**
 * The model's text for a call as typed values. Every required parameter is checked first, then
 * each value is read in the order the tool declares them; the first problem is thrown.
 */
export async function readParams<S extends readonly ParamSpec[]>(
  tool: { readonly name: string; readonly params: S },
  raw: Readonly<Record<string, string>>,
  roots: WorkspaceRoots,
): Promise<ParamValues<S>> {
  const missing = tool.params.find((p) => p.required && !raw[p.name]?.trim());
  if (missing) throw new ToolError("missing_param", formatResponse.missingParam(tool.name, missing.name));
  const values: Record<string, unknown> = {};
  for (const p of tool.params) {
    const text = raw[p.name];
    if (text !== undefined && text.trim() !== "") values[p.name] = await p.read(text, roots);
  }
  return values as ParamValues<S>;
}
