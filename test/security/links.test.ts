/**
 * Symbolic links through whole tasks (the real Controller, SDK and IgnoreController, the scripted
 * model): a link is judged as its target. A link to `.env`, into an ignored folder, along a chain,
 * or through the workspace's parent back into it is refused as its target would be; a link that
 * leaves the workspace is outside it and asks. Each case asserts on what the model receives next
 * (never a secret marker) and on the disk (the secrets and everything outside stay as they were).
 */
import { lstat, mkdir, mkdtemp, readdir, readFile, readlink, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { AskMessage } from "../../src/shared/messages";
import { DEFAULT_AUTO_APPROVAL, type AutoApprovalSettings } from "../../src/shared/settings";
import type { ScriptTurn } from "../support/script";
import { startHarness, type Harness } from "../support/task-harness";

/** In `.env`, the ignored folder and secret files outside: must never reach the model. */
const SECRET = "SECRET_MARKER_5e1d";
/** In plain files outside the workspace: reaches the model only once the person approves. */
const OUTSIDE = "OUTSIDE_MARKER_a9c0";

let harness: Harness | undefined;
let outside: string | undefined;
/** The host's ripgrep for this case (HostBridge.ripgrep): undefined is rg on PATH, false none. */
let ripgrep: string | false | undefined;
afterEach(async () => {
  ripgrep = undefined;
  await harness?.dispose();
  harness = undefined;
  if (outside) await rm(outside, { recursive: true, force: true });
  outside = undefined;
});

const call = (tool: string, params: Record<string, string>): ScriptTurn => ({
  text: `<${tool}>\n${Object.entries(params)
    .map(([k, v]) => `<${k}>${v}</${k}>`)
    .join("\n")}\n</${tool}>`,
});
const done = call("attempt_completion", { result: "done" });
const diff = (search: string) => `------- SEARCH\n${search}\n=======\nreplaced\n+++++++ REPLACE`;

/** The person says no to every tool and command, yes to the result. */
const decline = (ask: AskMessage) => (ask.ask === "tool" || ask.ask === "command" ? { type: "no" as const } : { type: "yes" as const });

/** The workspace (W) and a folder beside it (O): the secrets, the ignored folder and every kind of link. */
async function plant(h: Harness, out: string): Promise<void> {
  const w = h.workspace;
  await writeFile(join(w, ".env"), `TOKEN=${SECRET}\n`);
  await writeFile(join(w, ".tandemignore"), "/private/\n");
  await mkdir(join(w, "private"));
  await writeFile(join(w, "private", "hidden.txt"), `alpha beta gamma ${SECRET}\n`);
  await writeFile(join(w, "private", "plan.ts"), `export function ${SECRET}() {}\n`);
  await writeFile(join(w, "readme.md"), "hello\n");
  await writeFile(join(out, "plain.txt"), `alpha beta gamma ${OUTSIDE}\nsecond line\n`);
  await writeFile(join(out, ".env"), `TOKEN=${SECRET}\n`);
  await mkdir(join(out, "dir"));
  await writeFile(join(out, "dir", "inner.txt"), `inner ${OUTSIDE}\n`);
  const links: [string, string][] = [
    ["notes", ".env"],
    ["chain1", "chain2"],
    ["chain2", "chain3"],
    ["chain3", ".env"],
    ["pub", "private"],
    ["linked.ts", "private/plan.ts"],
    ["ext.txt", join(out, "plain.txt")],
    ["extdir", join(out, "dir")],
    ["extenv", join(out, ".env")],
    ["dangling", join(out, "created.txt")],
    ["dangling-secret", join(out, ".env.local")],
    ["chain-out", "ext.txt"],
    ["up", ".."],
  ];
  for (const [name, target] of links) await symlink(target, join(w, name));
}

/** Every file and link under `root` with its content or target: compared before and after. */
async function snapshot(root: string): Promise<Record<string, string>> {
  const result: Record<string, string> = {};
  const walk = async (folder: string): Promise<void> => {
    for (const name of await readdir(folder)) {
      const p = join(folder, name);
      const stats = await lstat(p);
      if (stats.isSymbolicLink()) result[p] = `-> ${await readlink(p)}`;
      else if (stats.isDirectory()) await walk(p);
      else result[p] = await readFile(p, "utf8");
    }
  };
  await walk(root);
  return result;
}

interface Run {
  readonly h: Harness;
  /** Everything the model received, every request. */
  readonly seen: string;
  /** What the model got back for the tool call. */
  readonly result: string;
}

async function runCase(turn: ScriptTurn, yolo: boolean, switches: Partial<AutoApprovalSettings> = {}): Promise<Run> {
  outside = await mkdtemp(join(tmpdir(), "tandem-outside-"));
  const settings = { yolo, autoApproval: { ...DEFAULT_AUTO_APPROVAL, editFiles: true, ...switches } };
  const h = (harness = await startHarness({ provider: "anthropic", settings, answer: decline, turns: [turn, done], ripgrep }));
  await plant(h, outside);
  const before = { w: await snapshot(h.workspace), o: await snapshot(outside) };
  expect(await h.run("Work")).toBe("completed");
  expect(await snapshot(outside)).toEqual(before.o);
  const after = await snapshot(h.workspace);
  for (const file of Object.keys(before.w)) expect(after[file], file).toBe(before.w[file]);
  // Nothing new appeared in the ignored folder either.
  expect(Object.keys(after).filter((file) => file.includes("/private/"))).toEqual(Object.keys(before.w).filter((file) => file.includes("/private/")));
  const seen = JSON.stringify(h.server.requests.map((r) => r.body.messages));
  const messages = (h.server.requests[1]?.body.messages ?? []) as { content: unknown }[];
  return { h, seen, result: JSON.stringify(messages.at(-1)?.content ?? "") };
}

const toolAsks = (h: Harness) => h.asks.filter((a) => a.ask === "tool");

/** Refused as the target is (secret or ignored), in YOLO and without, never asking. */
const REFUSED: [string, ScriptTurn][] = [
  ["read_file of a link to .env", call("read_file", { path: "notes" })],
  ["read_file of a link chain ending at .env", call("read_file", { path: "chain1" })],
  ["read_file through a link to an ignored folder", call("read_file", { path: "pub/hidden.txt" })],
  ["read_file of a link to a secret file outside", call("read_file", { path: "extenv" })],
  ["read_file of a link to an ignored source file", call("read_file", { path: "linked.ts" })],
  ["write_to_file through a link to .env", call("write_to_file", { path: "notes", content: "TOKEN=overwritten" })],
  ["write_to_file of a new file through a link to an ignored folder", call("write_to_file", { path: "pub/new.txt", content: "x" })],
  ["write_to_file through a dangling link to a secret name outside", call("write_to_file", { path: "dangling-secret", content: "x" })],
  ["replace_in_file through a link to .env", call("replace_in_file", { path: "notes", diff: diff("TOKEN=wrong") })],
  ["replace_in_file through a link to an ignored folder", call("replace_in_file", { path: "pub/hidden.txt", diff: diff("alpha beta gamma delta") })],
  ["search_files of a link to .env", call("search_files", { path: "notes", regex: "TOKEN" })],
  ["search_files of a link to an ignored folder", call("search_files", { path: "pub", regex: "alpha" })],
  ["list_files of a link to an ignored folder", call("list_files", { path: "pub", recursive: "true" })],
  ["list_code_definition_names of a link to an ignored folder", call("list_code_definition_names", { path: "pub" })],
  ["list_code_definition_names of a link to an ignored file", call("list_code_definition_names", { path: "linked.ts" })],
];

/** Harmless on their own; the walk must not follow links into secret, ignored or outside places. */
const WALKS: [string, ScriptTurn][] = [
  ["search_files of the whole workspace", call("search_files", { path: ".", regex: "alpha|TOKEN|inner|export" })],
  ["list_files of the whole workspace", call("list_files", { path: ".", recursive: "true" })],
  ["list_code_definition_names of the workspace", call("list_code_definition_names", { path: "." })],
];

/** Through a link outside the workspace: asks without YOLO (the "externally" switches are off). */
const OUTSIDE_CASES: [string, ScriptTurn][] = [
  ["read_file of a link to a file outside", call("read_file", { path: "ext.txt" })],
  ["read_file through a link to a folder outside", call("read_file", { path: "extdir/inner.txt" })],
  ["read_file along a chain that ends outside", call("read_file", { path: "chain-out" })],
  ["list_files of a link to a folder outside", call("list_files", { path: "extdir" })],
  ["search_files of a link to a folder outside", call("search_files", { path: "extdir", regex: "inner" })],
  ["write_to_file through a link to a file outside", call("write_to_file", { path: "ext.txt", content: "overwritten" })],
  ["write_to_file through a dangling link whose target would be created outside", call("write_to_file", { path: "dangling", content: "x" })],
  ["replace_in_file through a link to a file outside", call("replace_in_file", { path: "ext.txt", diff: diff("second line") })],
];

describe.each([
  ["ripgrep", undefined],
  ["the JavaScript search", false],
] as const)("links, searching with %s", (_engine, rg) => {
  const setEngine = () => (ripgrep = rg);

  describe.each([true, false])("YOLO %s", (yolo) => {
    it.each(REFUSED)("%s is refused as its target", async (_name, turn) => {
      setEngine();
      const { h, seen, result } = await runCase(turn, yolo);
      expect(seen).not.toContain(SECRET);
      expect(result).toMatch(/looks like a secret file|ignored by \.tandemignore/);
      expect(toolAsks(h)).toHaveLength(0);
    });

    it.each(WALKS)("%s does not descend through links", async (_name, turn) => {
      setEngine();
      const { seen, result } = await runCase(turn, yolo);
      expect(seen).not.toContain(SECRET);
      expect(seen).not.toContain(OUTSIDE);
      expect(result).not.toContain("hidden.txt");
      // The link to .env is a secret file: not even its name is listed.
      expect(result).not.toMatch(/(\\n|")notes(\\n|")/);
    });

    it("reaches the workspace's ignored folder through its parent as the ignored folder", async () => {
      setEngine();
      const turn = (w: string) => call("read_file", { path: `up/${basename(w)}/private/hidden.txt` });
      // The path names the workspace itself, known only once the harness made it: script it then.
      outside = await mkdtemp(join(tmpdir(), "tandem-outside-"));
      const settings = { yolo };
      const h = (harness = await startHarness({ provider: "openai", settings, answer: decline, turns: [], ripgrep }));
      h.server.enqueue(turn(h.workspace), done);
      await plant(h, outside);
      expect(await h.run("Work")).toBe("completed");
      expect(JSON.stringify(h.server.requests.map((r) => r.body.messages))).not.toContain(SECRET);
      expect(JSON.stringify(h.server.requests[1]?.body.messages)).toMatch(/ignored by \.tandemignore/);
    });
  });

  it.each(OUTSIDE_CASES)("without YOLO, %s asks as outside the workspace", async (_name, turn) => {
    setEngine();
    const { h, seen } = await runCase(turn, false);
    expect(seen).not.toContain(OUTSIDE);
    expect(seen).not.toContain(SECRET);
    const asked = toolAsks(h);
    expect(asked).toHaveLength(1);
    expect(asked[0]?.tool?.outsideWorkspace).toBe(true);
  });
});

describe("replace_in_file of a file outside the workspace, once approved", () => {
  const modes = [
    ["in YOLO", true, {}],
    ['with "edit files outside" on', false, { editFiles: true, editFilesExternally: true }],
  ] as const;

  it.each(modes)("%s, a diff that does not fit is refused without quoting the file", async (_mode, yolo, switches) => {
    const { h, seen, result } = await runCase(call("replace_in_file", { path: "ext.txt", diff: diff("alpha beta gamma delta") }), yolo, switches);
    expect(seen).not.toContain(OUTSIDE);
    expect(result).toContain("outside the workspace, so its text is not quoted");
    expect(toolAsks(h)).toHaveLength(0);
  });

  it.each(modes)("%s, an applied edit does not show the file", async (_mode, yolo, switches) => {
    outside = await mkdtemp(join(tmpdir(), "tandem-outside-"));
    const settings = { yolo, autoApproval: { ...DEFAULT_AUTO_APPROVAL, ...switches } };
    const turn = call("replace_in_file", { path: "ext.txt", diff: diff("second line") });
    const h = (harness = await startHarness({ provider: "anthropic", settings, answer: decline, turns: [turn, done] }));
    await plant(h, outside);
    expect(await h.run("Work")).toBe("completed");
    expect(await readFile(join(outside, "plain.txt"), "utf8")).toBe(`alpha beta gamma ${OUTSIDE}\nreplaced\n`);
    expect(JSON.stringify(h.server.requests.map((r) => r.body.messages))).not.toContain(OUTSIDE);
  });
});

describe("links outside the workspace in YOLO", () => {
  it("a read through a link outside is shown as outside the workspace", async () => {
    const { h } = await runCase(call("read_file", { path: "extdir/inner.txt" }), true);
    const rows = h.messages.filter((m) => m.type === "say" && m.say === "tool");
    expect(rows.at(-1)?.tool?.outsideWorkspace).toBe(true);
  });

  it("a read of the workspace's parent through a link is outside, and a secret there is refused", async () => {
    outside = await mkdtemp(join(tmpdir(), "tandem-outside-"));
    const h = (harness = await startHarness({ provider: "anthropic", settings: { yolo: true }, answer: decline, turns: [] }));
    h.server.enqueue(call("read_file", { path: `up/${basename(outside)}/extenv-link` }), done);
    await plant(h, outside);
    await symlink(join(outside, ".env"), join(outside, "extenv-link"));
    expect(await h.run("Work")).toBe("completed");
    expect(JSON.stringify(h.server.requests.map((r) => r.body.messages))).not.toContain(SECRET);
  });
});
