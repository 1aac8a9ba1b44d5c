/** How a finished task is labelled in History, and which checkpoint a Compare tab names. */
import { describe, expect, it } from "vitest";
import { statusOf } from "../../src/core/controller/history-follower";
import { compareTitle } from "../../src/core/controller/webview-session";
import { checkpointName, checkpointNumber } from "../../src/shared/checkpoints";
import type { AskKind, AskOutcome, ChatMessage } from "../../src/shared/messages";

const asked = (ask: AskKind, outcome?: AskOutcome): ChatMessage => ({ ts: 5, type: "ask", ask, outcome });
const chat = (...rows: ChatMessage[]): ChatMessage[] => [{ ts: 1, type: "say", say: "task", text: "t" }, ...rows];

describe("statusOf", () => {
  it("labels a task stopped at a failure's question failed, not cancelled", () => {
    for (const kind of ["api_req_failed", "mistake_limit_reached"] as const) {
      for (const outcome of [undefined, "cancelled", "no"] as const) expect(statusOf("aborted", "cancelled", chat(asked(kind, outcome)))).toBe("failed");
    }
    expect(statusOf("failed", undefined, chat())).toBe("failed");
    expect(statusOf("mistake_limit", undefined, chat())).toBe("failed");
  });

  it("keeps cancelled for a task cancelled while it worked, also after it had retried a failure, and interrupted for a shutdown", () => {
    expect(statusOf("aborted", "cancelled", chat())).toBe("cancelled");
    expect(statusOf("aborted", "cancelled", chat(asked("tool", "cancelled")))).toBe("cancelled");
    expect(statusOf("aborted", "cancelled", chat(asked("api_req_failed", "yes"), { ts: 6, type: "say", say: "api_req_started" }))).toBe("cancelled");
    expect(statusOf("aborted", "shutdown", chat(asked("api_req_failed")))).toBe("interrupted");
    expect(statusOf("completed", undefined, chat())).toBe("completed");
  });
});

describe("checkpoint numbers and the Compare tab's title", () => {
  const at = (hour: number, minute: number) => new Date(2026, 11, 2, hour, minute, 7).getTime();
  const rows: ChatMessage[] = [
    { ts: at(14, 1), type: "say", say: "task", text: "t", checkpoint: { hash: "c0", apiMessages: 1 } },
    { ts: at(14, 2), type: "say", say: "checkpoint_created", checkpoint: { hash: "c1", apiMessages: 3 } },
    { ts: at(14, 2) + 1, type: "say", say: "text", text: "more" },
    { ts: at(14, 3), type: "say", say: "checkpoint_created", checkpoint: { hash: "c2", apiMessages: 5 } },
  ];

  it("numbers the task's start 0 and each round's checkpoint from 1, as tandem checkpoints list does", () => {
    expect(rows.map((row) => checkpointNumber(rows, row.ts))).toEqual([0, 1, undefined, 2]);
    expect([0, 2].map(checkpointName)).toEqual(["Task start", "Checkpoint 2"]);
    // A first row still without its checkpoint does not shift the rounds' numbers.
    const [, ...rounds] = rows;
    expect(checkpointNumber([{ ts: 1, type: "say", say: "task" }, ...rounds], at(14, 3))).toBe(2);
  });

  it("says which checkpoint the tab compares with the workspace now, and when it was made", () => {
    expect(compareTitle(rows, at(14, 3))).toBe("Tandem: Checkpoint 2 (14:03:07) ↔ now");
    expect(compareTitle(rows, at(14, 1))).toBe("Tandem: Task start (14:01:07) ↔ now");
  });
});
