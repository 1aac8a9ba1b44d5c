import { describe, expect, it } from "vitest";
import type { ApiMessage } from "../../api/types";
import type { ChatMessage } from "../../shared/messages";
import { rewound } from "./checkpoints";

describe("rewound (restore task)", () => {
  it("keeps the round's results as the next request sent them, not words merged into them later", () => {
    const results: ApiMessage = {
      role: "user",
      content: [
        { type: "tool_result", toolUseId: "w", content: "written" },
        // Merged in after the task was resumed: a reply said later, and the superseding details.
        { type: "text", text: "[TASK RESUMPTION] ... <feedback>a later reply</feedback>" },
        { type: "text", text: "<environment_details>\nnow\n</environment_details>" },
      ],
    };
    const api: ApiMessage[] = [{ role: "user", content: "task" }, { role: "assistant", content: [{ type: "tool_use", id: "w", name: "write_to_file", input: {} }] }, results];
    const chat: ChatMessage[] = [
      { ts: 1, type: "say", say: "task", text: "task" },
      { ts: 2, type: "say", say: "checkpoint_created", checkpoint: { hash: "c1", apiMessages: 3 } },
      { ts: 3, type: "say", say: "api_req_started", apiRequest: { tokensIn: 1, tokensOut: 1, cacheReads: 0, cacheWrites: 0, cost: 0.01, sent: { messages: 3, lastBlocks: 1 } } },
    ];
    const restored = rewound({ chat, api }, 2);
    expect(restored.api).toEqual([api[0], api[1], { role: "user", content: [{ type: "tool_result", toolUseId: "w", content: "written" }] }]);
  });

  it("keeps the whole count when no later request says how it was sent (rows of an earlier version)", () => {
    const api: ApiMessage[] = [{ role: "user", content: "task" }, { role: "assistant", content: "ok" }, { role: "user", content: "more" }];
    const chat: ChatMessage[] = [
      { ts: 1, type: "say", say: "task", text: "task" },
      { ts: 2, type: "say", say: "checkpoint_created", checkpoint: { hash: "c1", apiMessages: 3 } },
    ];
    expect(rewound({ chat, api }, 2).api).toEqual(api);
  });
});
