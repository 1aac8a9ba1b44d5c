import { describe, expect, it } from "vitest";
import { ApiError } from "../../api/errors";
import type { ApiHandler, ApiStream } from "../../api/types";
import { ModeApiHandler } from "./mode-api";

/** A handler that answers with its own name, so a test sees which one a request went to. */
function named(id: string, aborted: string[]): ApiHandler {
  return {
    async *createMessage(): ApiStream {
      yield { type: "text", text: id };
    },
    getModel: () => ({ id, info: {} as never }),
    abort: () => void aborted.push(id),
  };
}

async function first(stream: ApiStream): Promise<unknown> {
  return (await stream.next()).value;
}

describe("ModeApiHandler", () => {
  it("sends Plan requests to the Plan client, made once on the first of them, and aborts both", async () => {
    const aborted: string[] = [];
    let mode: "plan" | "act" = "act";
    let made = 0;
    const api = new ModeApiHandler(named("act", aborted), () => mode, () => (made++, named("plan", aborted)));
    expect(await first(api.createMessage("", []))).toEqual({ type: "text", text: "act" });
    expect(made).toBe(0);
    mode = "plan";
    expect(await first(api.createMessage("", []))).toEqual({ type: "text", text: "plan" });
    expect(await first(api.createMessage("", []))).toEqual({ type: "text", text: "plan" });
    expect(made).toBe(1);
    expect(api.getModel().id).toBe("plan");
    api.abort();
    expect(aborted).toEqual(["act", "plan"]);
  });

  it("a Plan client that cannot be made fails the request as a bad request naming the setting, and is tried again next time", async () => {
    let attempts = 0;
    const api = new ModeApiHandler(named("act", []), () => "plan", () => {
      attempts++;
      throw new Error('Unknown model "x"');
    });
    const failure = await api.createMessage("", []).next().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure).toMatchObject({ kind: "bad_request", message: expect.stringContaining('planModeModelId) cannot be used: Unknown model "x"') });
    await api.createMessage("", []).next().catch(() => undefined);
    expect(attempts).toBe(2);
  });

  it("no Plan model: Plan requests use the Act client", async () => {
    const api = new ModeApiHandler(named("act", []), () => "plan", () => undefined);
    expect(await first(api.createMessage("", []))).toEqual({ type: "text", text: "act" });
  });
});
