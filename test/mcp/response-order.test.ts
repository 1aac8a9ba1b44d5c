/**
 * The SDK's Protocol drops a progress notification that arrives in the same read as its call's
 * response. A transport that delivers both synchronously, as a stdio chunk or an SSE batch does,
 * shows it without timing luck: unwrapped the last progress is lost, wrapped it arrives.
 */
import { describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { deliverResponsesAfterNotifications } from "../../src/core/mcp/response-order";

/** A server in the same process: answers initialize, and a tool call with progress then the result in one go. */
class OneReadServer implements Transport {
  constructor(private readonly closeAfterResult = false) {}
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  async start(): Promise<void> {}
  async close(): Promise<void> {
    this.onclose?.();
  }
  async send(message: JSONRPCMessage): Promise<void> {
    if (!("method" in message) || !("id" in message)) return;
    const reply = (result: Record<string, unknown>) => this.onmessage?.({ jsonrpc: "2.0", id: message.id, result });
    if (message.method === "initialize") {
      reply({ protocolVersion: "2025-06-18", capabilities: { tools: {} }, serverInfo: { name: "one-read", version: "1" } });
    } else if (message.method === "tools/call") {
      const progressToken = (message.params as { _meta?: { progressToken?: number } })._meta?.progressToken;
      queueMicrotask(() => {
        for (const progress of [1, 2]) this.onmessage?.({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken, progress, total: 2 } });
        reply({ content: [{ type: "text", text: "done" }] });
        if (this.closeAfterResult) this.onclose?.();
      });
    }
  }
}

async function progressSeen(transport: Transport): Promise<number[]> {
  const client = new Client({ name: "test", version: "1" });
  await client.connect(transport);
  const seen: number[] = [];
  const result = await client.callTool({ name: "t", arguments: {} }, undefined, { onprogress: (p) => seen.push(p.progress) });
  expect(result.content).toEqual([{ type: "text", text: "done" }]);
  await client.close();
  return seen;
}

describe("deliverResponsesAfterNotifications", () => {
  it("the SDK alone loses the progress that shares a read with the response", async () => {
    expect(await progressSeen(new OneReadServer())).toEqual([]);
  });

  it("with responses one microtask late, every progress reaches the call", async () => {
    expect(await progressSeen(deliverResponsesAfterNotifications(new OneReadServer()))).toEqual([1, 2]);
  });

  it("a close in the same read as the response still lets the response through", async () => {
    const client = new Client({ name: "test", version: "1" });
    await client.connect(deliverResponsesAfterNotifications(new OneReadServer(true)));
    await expect(client.callTool({ name: "t", arguments: {} })).resolves.toMatchObject({ content: [{ text: "done" }] });
  });
});
