/**
 * How many messages the chat panel receives for a small everyday task: two rounds, the first an
 * edit (write_to_file) the person approves in the panel, the second the result they accept. Every
 * post from the panel's `ready` until the session is disposed is counted, by type, so a protocol
 * change shows what it costs in messages. `npm run bench -- panel-rounds`.
 */
import type { ToWebviewMessage } from "../src/shared/protocol";
import { startScriptedModelServer } from "../test/support/scripted-model-server";
import { COMPLETION, runPanelTask } from "./panel-task";

const EDIT = "I'll write the file.\n\n<write_to_file>\n<path>a.ts</path>\n<content>\nexport const a = 1;\n</content>\n</write_to_file>";

export async function run(): Promise<void> {
  const server = await startScriptedModelServer();
  try {
    server.enqueue({ text: EDIT }, { text: COMPLETION });
    const posted: ToWebviewMessage["type"][] = [];
    const result = await runPanelTask({ baseUrl: server.anthropicBaseUrl, prompt: "Write a.ts", onPost: (message) => posted.push(message.type) });
    if (result.outcome !== "completed") throw new Error(`the task ended ${result.outcome ?? "without an outcome"}`);
    const byType = new Map<string, number>();
    for (const type of posted) byType.set(type, (byType.get(type) ?? 0) + 1);
    const counts = [...byType].sort(([, a], [, b]) => b - a).map(([type, n]) => `${type} ${n}`);
    console.log(`two rounds, one approved edit: ${posted.length} messages posted to the panel (${counts.join(", ")})`);
  } finally {
    await server.close();
  }
}
