import { describe, expect, it } from "vitest";
import { checkContent, formFields, McpElicitations } from "./mcp-elicitations";

const params = {
  message: "Who are you?",
  requestedSchema: {
    type: "object" as const,
    properties: {
      name: { type: "string" as const, title: "Name", minLength: 2 },
      age: { type: "integer" as const, minimum: 0 },
      color: { type: "string" as const, enum: ["r", "g"], enumNames: ["Red", "Green"] },
      ok: { type: "boolean" as const, default: true },
    },
    required: ["name"],
  },
};

function broker(taskId?: string) {
  const events: string[] = [];
  const b = new McpElicitations({ opened: (e) => events.push(`opened ${e.id}`), closed: (id) => events.push(`closed ${id}`) }, () => taskId);
  return { b, events };
}

describe("elicitation forms", () => {
  it("reads the flat fields of the requested schema", () => {
    expect(formFields(params)).toEqual([
      { name: "name", title: "Name", required: true, kind: "string", minLength: 2 },
      { name: "age", title: "age", required: false, kind: "number", integer: true, minimum: 0 },
      { name: "color", title: "color", required: false, kind: "enum", options: [{ value: "r", label: "Red" }, { value: "g", label: "Green" }] },
      { name: "ok", title: "ok", required: false, kind: "boolean", default: true },
    ]);
  });

  it("checks values against the fields", () => {
    const fields = formFields(params);
    expect(checkContent(fields, { name: "Al", age: 3, color: "g", ok: false })).toEqual({ name: "Al", age: 3, color: "g", ok: false });
    expect(checkContent(fields, { age: 3 })).toBe('"Name" is required.');
    expect(checkContent(fields, { name: "A" })).toBe('"Name" needs at least 2 characters.');
    expect(checkContent(fields, { name: "Al", age: 2.5 })).toBe('"age" must be a whole number.');
    expect(checkContent(fields, { name: "Al", color: "b" })).toBe('"color" must be one of the choices.');
  });

  it("answers with the person's choice and closes the form", async () => {
    const { b, events } = broker();
    const answer = b.elicit("srv", params, new AbortController().signal);
    expect(b.open()).toHaveLength(1);
    expect(b.answer({ id: 1, action: "accept", content: { name: "Al", extra: "dropped" } })).toBeUndefined();
    await expect(answer).resolves.toEqual({ action: "accept", content: { name: "Al" } });
    expect(events).toEqual(["opened 1", "closed 1"]);
    expect(b.answer({ id: 1, action: "decline" })).toBe("That server's request was already closed.");
  });

  it("cancels when the server's signal aborts, and when the task it came during ends", async () => {
    const { b, events } = broker("task-a");
    const controller = new AbortController();
    const first = b.elicit("srv", params, controller.signal);
    const second = b.elicit("srv", params, new AbortController().signal);
    controller.abort();
    await expect(first).resolves.toEqual({ action: "cancel" });
    b.taskEnded("task-b");
    expect(b.open().map((e) => e.id)).toEqual([2]);
    b.taskEnded("task-a");
    await expect(second).resolves.toEqual({ action: "cancel" });
    expect(events).toEqual(["opened 1", "opened 2", "closed 1", "closed 2"]);
    await expect(b.elicit("srv", params, AbortSignal.abort())).resolves.toEqual({ action: "cancel" });
  });
});
