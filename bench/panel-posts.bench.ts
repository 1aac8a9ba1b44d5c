/**
 * What the chat panel receives while a file streams: a `write_to_file` of 200 KB and of 1 MB,
 * streamed through the whole Task (real SDK, scripted model server, WebviewSession) in the
 * server's default 16-character chunks, once approved by the person through the panel and once
 * auto-approved. It prints the bytes posted to the panel per byte of the file (the file itself
 * is the baseline: 1.00 would be sending it once) and the number of posts. Every post is replayed
 * into the webview's own store, and the row it ends with must hold the file, so the count is
 * of a panel that shows the right thing. `PANEL_BENCH_KB=200 npm run bench -- panel-posts` runs one size.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { ToWebviewMessage } from "../src/shared/protocol";
import { DEFAULT_AUTO_APPROVAL } from "../src/shared/settings";
import { startScriptedModelServer } from "../test/support/scripted-model-server";
import { ExtensionStore } from "../webview-ui/src/state/extension-store";
import { COMPLETION, runPanelTask } from "./panel-task";

const SIZES = (process.env.PANEL_BENCH_KB ?? "200,1024").split(",").map((kb) => Number(kb) * 1024);
const TARGET_BYTES_PER_BYTE = 3;
const MODES = [
  { name: "approved in the panel", autoApproval: DEFAULT_AUTO_APPROVAL },
  { name: "auto-approved", autoApproval: { ...DEFAULT_AUTO_APPROVAL, editFiles: true } },
];

export async function run(): Promise<void> {
  const server = await startScriptedModelServer();
  try {
    console.log("write_to_file streamed in 16-character chunks; bytes = JSON of every post to the panel");
    for (const size of SIZES) {
      for (const mode of MODES) {
        const file = sourceFile(size);
        server.enqueue({ text: `I'll write the file.\n\n<write_to_file>\n<path>big.ts</path>\n<content>\n${file}</content>\n</write_to_file>` }, { text: COMPLETION });
        const webview = new ExtensionStore();
        let shownContent: string | undefined;
        const result = await runPanelTask({
          baseUrl: server.anthropicBaseUrl,
          prompt: "Write big.ts",
          agent: { autoApproval: mode.autoApproval },
          // A copy, as crossing to the webview makes: a posted slice must not pin the host's string.
          onPost: (message: ToWebviewMessage) => webview.apply(structuredClone(message)),
          inspect: async ({ workspace }) => {
            const written = await readFile(join(workspace, "big.ts"), "utf8");
            if (written !== file) throw new Error(`big.ts was not written as streamed (${written.length} of ${file.length} chars)`);
            shownContent = findToolContent(webview);
          },
        });
        if (result.outcome !== "completed") throw new Error(`the task ended ${result.outcome ?? "without an outcome"}`);
        if (shownContent !== file) throw new Error(`the panel's tool row does not hold the file (${shownContent?.length ?? 0} of ${file.length} chars)`);
        const ratio = result.bytes / Buffer.byteLength(file);
        const kb = (size / 1024).toFixed(0);
        console.log(
          `${kb.padStart(5)} KB file, ${mode.name}: ${result.posts} posts, ${mb(result.bytes)} posted, ` +
            `ratio posted/file ${ratio.toFixed(2)}x, ${(result.ms / 1000).toFixed(2)} s`,
        );
        console.log(`${ratio < TARGET_BYTES_PER_BYTE ? "PASS" : "MISS"} target: under ${TARGET_BYTES_PER_BYTE} bytes posted per byte of a ${kb} KB file, ${mode.name} (${ratio.toFixed(2)}x)`);
      }
    }
  } finally {
    await server.close();
  }
}

function findToolContent(store: ExtensionStore): string | undefined {
  for (let i = store.getState().messageCount - 1; i >= 0; i--) {
    const message = store.messageAt(i);
    if (message?.tool?.tool === "write_to_file") return message.tool.content;
  }
  return undefined;
}

function sourceFile(size: number): string {
  const lines: string[] = [];
  let length = 0;
  for (let i = 0; length < size; i++) {
    const line = i % 12 === 0 ? `/** Step ${i}: keeps a < b for every pair. */` : `export const value_${i} = compute(${i}, "item-${i % 97}") + offset_${i % 13};`;
    lines.push(line);
    length += line.length + 1;
  }
  return `${lines.join("\n")}\n`;
}

function mb(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${(bytes / 1024).toFixed(0)} KB`;
}
