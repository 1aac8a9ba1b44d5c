/**
 * Cost of a long answer through the whole Task as the panel runs it: answers of 1, 4 and 16 MB of
 * prose (markdown, a few `<`) streamed by the scripted model server in its default 16-character
 * chunks, through the real SDK, the Task and the WebviewSession (so posting to the panel counts).
 * Each size runs in a fresh child process, so one size's memory peak cannot hide another's; the
 * server runs here, in the parent, so its copy of the script is not counted either.
 * It prints the time growth per 4x size (linear is 4x; target <= 5.2x, within 1.3x of linear) and
 * the peak RSS per byte of answer above a 1 KB answer's peak (the baseline, measured in the same run).
 * `ANSWER_BENCH_MB=1,4 npm run bench -- answer-size` runs other sizes.
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { startScriptedModelServer } from "../test/support/scripted-model-server";
import { COMPLETION, runPanelTask } from "./panel-task";
import { prng } from "../test/support/prng";

const MB = 1024 * 1024;
const SIZES = (process.env.ANSWER_BENCH_MB ?? "1,4,16").split(",").map((mb) => Math.round(Number(mb) * MB));
const BASELINE_SIZE = 1024;
const WARM_UP_SIZE = 64 * 1024;
const TARGET_GROWTH = 5.2;
const THIS_FILE = fileURLToPath(import.meta.url);

interface Sample {
  bytes: number;
  ms: number;
  posts: number;
  postedBytes: number;
  peakRssBytes: number;
}

export async function run(): Promise<void> {
  const server = await startScriptedModelServer();
  try {
    console.log("each size in a fresh child process, after a 64 KB warm-up task; time = newTask to task end; 16-character chunks");
    const baseline = await measure(server, BASELINE_SIZE);
    console.log(`baseline ${BASELINE_SIZE} B answer: peak RSS ${mb(baseline.peakRssBytes)}, ${ms(baseline.ms)}`);
    const samples: Sample[] = [];
    for (const size of SIZES) {
      const s = await measure(server, size);
      samples.push(s);
      const rssPerByte = (s.peakRssBytes - baseline.peakRssBytes) / s.bytes;
      console.log(
        `${mb(s.bytes).padStart(7)} answer: ${ms(s.ms)} (${((s.ms / s.bytes) * MB).toFixed(0)} ms/MB), peak RSS ${mb(s.peakRssBytes)} ` +
          `(${rssPerByte.toFixed(1)} bytes per byte of answer above the baseline), ${s.posts} posts, ` +
          `${(s.postedBytes / s.bytes).toFixed(2)} bytes posted per byte`,
      );
    }
    for (let i = 1; i < samples.length; i++) {
      const [a, b] = [samples[i - 1] as Sample, samples[i] as Sample];
      const growth = b.ms / a.ms;
      const sizeX = b.bytes / a.bytes;
      const target = (TARGET_GROWTH / 4) * sizeX;
      console.log(
        `${growth <= target ? "PASS" : "MISS"} target: time growth ${mb(a.bytes)} -> ${mb(b.bytes)} (x${sizeX.toFixed(0)} size) ` +
          `<= x${target.toFixed(1)} (x${growth.toFixed(2)}; linear x${sizeX.toFixed(0)})`,
      );
    }
  } finally {
    await server.close();
  }
}

async function measure(server: Awaited<ReturnType<typeof startScriptedModelServer>>, size: number): Promise<Sample> {
  server.enqueue({ text: `${prose(WARM_UP_SIZE)}\n\n${COMPLETION}` }, { text: `${prose(size)}\n\n${COMPLETION}` });
  const out = await runChild([THIS_FILE, "--child", server.anthropicBaseUrl, String(size)]);
  const line = out.split("\n").find((l) => l.startsWith("RESULT "));
  if (!line) throw new Error(`the ${mb(size)} child printed no result:\n${out}`);
  return JSON.parse(line.slice("RESULT ".length)) as Sample;
}

function runChild(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", ...args], { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve(out) : reject(new Error(`bench child exited with ${code}:\n${out}`))));
  });
}

/** In the child: a small task that loads the SDK and warms the JIT, the measured one, then its figures on one line. */
async function child(baseUrl: string, size: number): Promise<void> {
  await runPanelTask({ baseUrl, prompt: "Warm up" });
  // Only the length is kept, so the child's own copy of the answer is not in its memory peak.
  const expected = prose(size).trimEnd().length;
  let shown = 0;
  const result = await runPanelTask({
    baseUrl,
    prompt: "Explain the design",
    inspect: async ({ messages }) => {
      shown = messages.reduce((n, m) => (m.type === "say" && m.say === "text" ? n + (m.text?.length ?? 0) : n), 0);
    },
  });
  if (result.outcome !== "completed") throw new Error(`the task ended ${result.outcome ?? "without an outcome"}`);
  // The sanitizer trims trailing space, nothing else of this prose.
  if (shown !== expected) throw new Error(`the chat shows ${shown} of the answer's ${expected} characters`);
  const sample: Sample = {
    bytes: size,
    ms: result.ms,
    posts: result.posts,
    postedBytes: result.bytes,
    peakRssBytes: process.resourceUsage().maxRSS * 1024,
  };
  process.stdout.write(`RESULT ${JSON.stringify(sample)}\n`);
}

// ---- a long answer, deterministic: headings, lists, emphasis, code spans and a few `<`.

function prose(size: number): string {
  const rnd = prng(size);
  const sentences = [
    "The store keeps one entry per key and evicts the least recently used one when it is full.",
    "Each **update** touches one slot, so the cost stays flat as the list grows.",
    "Reading `entries.get(key)` is O(1); walking the list is only needed on a full reload.",
    "When a < b the older entry goes first, which keeps the order stable.",
    "A *pinned* entry is never evicted, even when the limit is reached.",
    "Tests cover the empty store, a single entry and a store at its limit.",
  ];
  const parts: string[] = [];
  let length = 0;
  for (let n = 1; length < size; n++) {
    const lines = [`## Part ${n}`, ""];
    for (let i = 0; i < 4; i++) lines.push(sentences[Math.floor(rnd() * sentences.length)] as string);
    lines.push("", `- item ${n}.1: keep it small`, `- item ${n}.2: measure first`, "");
    const part = lines.join("\n");
    parts.push(part);
    length += part.length + 1;
  }
  return parts.join("\n").slice(0, size);
}


function mb(bytes: number): string {
  return bytes >= MB ? `${(bytes / MB).toFixed(bytes % MB === 0 ? 0 : 1)} MB` : bytes >= 1024 ? `${(bytes / 1024).toFixed(0)} KB` : `${bytes} B`;
}

function ms(x: number): string {
  return x >= 1000 ? `${(x / 1000).toFixed(2)} s` : `${x.toFixed(0)} ms`;
}

const childAt = process.argv.indexOf("--child");
if (childAt !== -1 && process.argv[1] === THIS_FILE) {
  child(process.argv[childAt + 1] ?? "", Number(process.argv[childAt + 2])).catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
