/**
 * A server's requests for the person's input (MCP elicitation), as forms in the panel.
 *
 * Why a request/response pair of its own and not an ask kind of the task: a server may elicit
 * at any moment — during a tool call of a task, but also while listing, from a background
 * notification, or with no task at all — and several servers may ask at once, while a task has
 * at most one open question and every ask is a chat row of that task. So an elicitation is owned
 * here, by the panel's session: it is announced (`mcpElicitationOpened`), answered by id
 * (`mcpElicitationAnswer`), closed (`mcpElicitationClosed`), and cancelled when the server's
 * signal aborts or the task it arrived during ends.
 */
import type { ElicitRequest, ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import type { McpElicitation, McpElicitationAnswer, McpElicitationField, McpElicitationValue } from "../../shared/mcp";

type Params = ElicitRequest["params"];

interface Pending {
  readonly elicitation: McpElicitation;
  readonly taskId: string | undefined;
  readonly settle: (result: ElicitResult) => void;
}

export interface ElicitationEvents {
  opened(elicitation: McpElicitation): void;
  closed(id: number): void;
}

export class McpElicitations {
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;

  constructor(
    private readonly events: ElicitationEvents,
    /** The task running now, if any: its end cancels what arrived during it. */
    private readonly currentTaskId: () => string | undefined,
  ) {}

  /** The hub's `elicit` callback: resolves with the person's answer, or `cancel` when `signal` aborts. */
  readonly elicit = (server: string, params: Params, signal: AbortSignal): Promise<ElicitResult> => {
    if (signal.aborted) return Promise.resolve({ action: "cancel" });
    const id = this.nextId++;
    const elicitation: McpElicitation = { id, server, message: params.message, fields: formFields(params) };
    return new Promise<ElicitResult>((resolve) => {
      const onAbort = () => this.close(id, { action: "cancel" });
      signal.addEventListener("abort", onAbort, { once: true });
      this.pending.set(id, {
        elicitation,
        taskId: this.currentTaskId(),
        settle: (result) => {
          signal.removeEventListener("abort", onAbort);
          resolve(result);
        },
      });
      this.events.opened(elicitation);
    });
  };

  open(): readonly McpElicitation[] {
    return [...this.pending.values()].map((p) => p.elicitation);
  }

  /** Delivers the person's answer; returns why it was refused, or undefined when delivered. */
  answer(answer: McpElicitationAnswer): string | undefined {
    const pending = this.pending.get(answer.id);
    if (!pending) return "That server's request was already closed.";
    if (answer.action !== "accept") return void this.close(answer.id, { action: answer.action });
    const checked = checkContent(pending.elicitation.fields, answer.content ?? {});
    if (typeof checked === "string") return checked;
    this.close(answer.id, { action: "accept", content: checked });
    return undefined;
  }

  /** The task `taskId` ended (finished, cancelled, cleared): what its servers asked meanwhile is cancelled. */
  taskEnded(taskId: string): void {
    for (const [id, p] of this.pending) if (p.taskId === taskId) this.close(id, { action: "cancel" });
  }

  cancelAll(): void {
    for (const id of [...this.pending.keys()]) this.close(id, { action: "cancel" });
  }

  private close(id: number, result: ElicitResult): void {
    const pending = this.pending.get(id);
    if (!pending) return;
    this.pending.delete(id);
    pending.settle(result);
    this.events.closed(id);
  }
}

/** The requested schema's flat fields, in its order. */
export function formFields(params: Params): McpElicitationField[] {
  const schema = "requestedSchema" in params ? params.requestedSchema : undefined;
  const required = new Set(schema?.required ?? []);
  return Object.entries(schema?.properties ?? {}).map(([name, raw]) => field(name, raw as Record<string, unknown>, required.has(name)));
}

function field(name: string, p: Record<string, unknown>, required: boolean): McpElicitationField {
  const base = { name, title: str(p.title) ?? name, ...(str(p.description) ? { description: str(p.description) } : {}), required };
  const options = enumOptions(p);
  if (options) return { ...base, kind: "enum", options, ...(str(p.default) !== undefined ? { default: str(p.default) } : {}) };
  switch (p.type) {
    case "string":
      return { ...base, kind: "string", ...pick(p, ["default", "format", "minLength", "maxLength"]) };
    case "number":
    case "integer":
      return { ...base, kind: "number", integer: p.type === "integer", ...pick(p, ["default", "minimum", "maximum"]) };
    case "boolean":
      return { ...base, kind: "boolean", ...(typeof p.default === "boolean" ? { default: p.default } : {}) };
    default:
      return { ...base, kind: "unsupported", why: `Tandem's form cannot ask for ${typeof p.type === "string" ? `a ${p.type}` : "this kind of value"}` };
  }
}

/** `enum` (with `enumNames`) or `oneOf` of `{const, title}`: a single choice among strings. */
function enumOptions(p: Record<string, unknown>): { value: string; label: string }[] | undefined {
  if (p.type !== "string") return undefined;
  if (Array.isArray(p.enum)) {
    const names = Array.isArray(p.enumNames) ? p.enumNames : [];
    return p.enum.map((v, i) => ({ value: String(v), label: str(names[i]) ?? String(v) }));
  }
  if (Array.isArray(p.oneOf)) {
    return (p.oneOf as Record<string, unknown>[]).map((o) => ({ value: String(o.const), label: str(o.title) ?? String(o.const) }));
  }
  return undefined;
}

/** Checks the panel's values against the fields; returns the content to send, or why not. */
export function checkContent(fields: readonly McpElicitationField[], content: Readonly<Record<string, unknown>>): Record<string, McpElicitationValue> | string {
  const out: Record<string, McpElicitationValue> = {};
  for (const f of fields) {
    const value = content[f.name];
    if (value === undefined || value === "") {
      if (f.required) return `"${f.title}" is required.`;
      continue;
    }
    const problem = fieldProblem(f, value);
    if (problem) return `"${f.title}" ${problem}.`;
    out[f.name] = value as McpElicitationValue;
  }
  return out;
}

function fieldProblem(f: McpElicitationField, value: unknown): string | undefined {
  switch (f.kind) {
    case "string":
      if (typeof value !== "string") return "must be text";
      if (f.minLength !== undefined && value.length < f.minLength) return `needs at least ${f.minLength} characters`;
      if (f.maxLength !== undefined && value.length > f.maxLength) return `takes at most ${f.maxLength} characters`;
      return undefined;
    case "number":
      if (typeof value !== "number" || !Number.isFinite(value)) return "must be a number";
      if (f.integer && !Number.isInteger(value)) return "must be a whole number";
      if (f.minimum !== undefined && value < f.minimum) return `must be at least ${f.minimum}`;
      if (f.maximum !== undefined && value > f.maximum) return `must be at most ${f.maximum}`;
      return undefined;
    case "boolean":
      return typeof value === "boolean" ? undefined : "must be yes or no";
    case "enum":
      return f.options.some((o) => o.value === value) ? undefined : "must be one of the choices";
    case "unsupported":
      return `cannot be answered here (${f.why})`;
  }
}

function str(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

function pick(p: Record<string, unknown>, keys: readonly string[]): Record<string, string | number> {
  return Object.fromEntries(keys.filter((k) => typeof p[k] === "string" || typeof p[k] === "number").map((k) => [k, p[k] as string | number]));
}
