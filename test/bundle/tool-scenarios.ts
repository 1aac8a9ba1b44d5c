/**
 * One scenario per tool of the registry, each a real task run by the production CLI bundle:
 * the scripted model calls the tool, and the scenario checks what really happened (files on
 * disk, what went back to the model), not only the exit code.
 */
import { constants } from "node:fs";
import { access, chmod, mkdir, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { delimiter, dirname, join } from "node:path";
import { expect } from "vitest";
import type { ToolName } from "../../src/core/task/tools/registry";
import { LANGUAGES, languageForFile } from "../../src/core/task/tools/tree-sitter/languages";
import { ARTICLE_SENTENCE, NAV_NOISE, type TestSite } from "../support/web-fetch-test-server";
import { buildDocx } from "../fixtures/documents/build-docx";
import { buildPdf } from "../fixtures/documents/build-pdf";
import { COMPLETE, messageTexts, toolCall, toolResults, type CliRun, type ProductionCli } from "./production-cli";
import { OUTLINE_SAMPLES } from "./outline-samples";
import { serverScript } from "../mcp/support";

export interface ScenarioEnv {
  readonly cli: ProductionCli;
  /** A scratch folder of this test file. */
  readonly dir: string;
  readonly site: TestSite;
}

type Scenario = (env: ScenarioEnv) => Promise<void>;

/** A fresh workspace holding `files`. */
async function workspace(env: ScenarioEnv, files: Readonly<Record<string, string | Buffer>>): Promise<string> {
  const root = await mkdtemp(join(env.dir, "ws-"));
  for (const [name, content] of Object.entries(files)) {
    await mkdir(dirname(join(root, name)), { recursive: true });
    await writeFile(join(root, name), content);
  }
  return root;
}

/** The task completed, after exactly the scripted turns, and no tool call failed. */
function expectCompleted(run: CliRun, turns: number): string[] {
  expect(run.code, `exit code; stderr: ${run.stderr}\nstdout: ${run.stdout}`).toBe(0);
  expect(run.requests).toHaveLength(turns);
  const results = toolResults(run);
  for (const result of results) expect(result).not.toMatch(/The tool failed|<error>/);
  return results;
}

const NOTEBOOK = JSON.stringify({
  nbformat: 4,
  cells: [
    { cell_type: "markdown", source: ["# Tides\n", "Readings by hour."] },
    { cell_type: "code", source: "heights = load('tides.csv')\n", outputs: [{ output_type: "stream", text: "NOTEBOOK-OUTPUT" }] },
  ],
});

const readFileScenario: Scenario = async (env) => {
  const cwd = await workspace(env, {
    "notes.txt": "first line\nsecond line\n",
    "docs/report.pdf": buildPdf([["Tide tables", "High water at 06:12"]]),
    "docs/memo.docx": buildDocx(["The harbour opens at dawn."]),
    "analysis.ipynb": NOTEBOOK,
  });
  const files = ["notes.txt", "docs/report.pdf", "docs/memo.docx", "analysis.ipynb"];
  const run = await env.cli.run("Read the files", [...files.map((path) => toolCall("read_file", { path })), COMPLETE], { cwd });
  const [text, pdf, docx, notebook] = expectCompleted(run, files.length + 1);
  // read_file numbers the lines it returns: `2|text`.
  expect(text).toMatch(/1\|first line\n2\|second line/);
  expect(pdf).toMatch(/1\|--- page 1 of 1 ---\n2\|Tide tables\n3\|High water at 06:12/);
  expect(docx).toMatch(/1\|The harbour opens at dawn\./);
  expect(notebook).toMatch(/2\|# Tides\n3\|Readings by hour\.\n4\|--- cell 2 \(code\) ---\n5\|heights = load\('tides\.csv'\)/);
  expect(notebook).not.toContain("NOTEBOOK-OUTPUT");
};

const writeToFileScenario: Scenario = async (env) => {
  const cwd = await workspace(env, {});
  const run = await env.cli.run("Write a file", [toolCall("write_to_file", { path: "src/made.txt", content: "\nalpha\nbeta\n" }), COMPLETE], { cwd });
  const [result] = expectCompleted(run, 2);
  expect(await readFile(join(cwd, "src/made.txt"), "utf8")).toBe("alpha\nbeta\n");
  expect(result).toContain("src/made.txt");
};

const replaceInFileScenario: Scenario = async (env) => {
  const cwd = await workspace(env, { "config.ini": "name = demo\ncount = 1\nmode = fast\n" });
  const diff = "\n------- SEARCH\ncount = 1\n=======\ncount = 2\n+++++++ REPLACE\n";
  const run = await env.cli.run("Bump the count", [toolCall("replace_in_file", { path: "config.ini", diff }), COMPLETE], { cwd });
  const [result] = expectCompleted(run, 2);
  expect(await readFile(join(cwd, "config.ini"), "utf8")).toBe("name = demo\ncount = 2\nmode = fast\n");
  expect(result).toContain("config.ini");
};

const listFilesScenario: Scenario = async (env) => {
  const cwd = await workspace(env, { ".gitignore": "build/\n", "src/a.ts": "", "src/deep/b.ts": "", "README.md": "", "build/out.js": "" });
  const run = await env.cli.run("List", [toolCall("list_files", { path: ".", recursive: "true" }), COMPLETE], { cwd });
  const [listing] = expectCompleted(run, 2);
  for (const entry of ["src/a.ts", "src/deep/b.ts", "README.md"]) expect(listing).toContain(entry);
  expect(listing).not.toContain("out.js");
};

const SEARCHED = {
  "src/tides.ts": "export const high = 6;\n// TODO: low water\nexport const low = 12;\n",
  "src/moon.py": "phase = 'full'\n# TODO: neap tides\n",
  "notes/ignored.md": "TODO: not searched (gitignored)\n",
  ".gitignore": "notes/\n",
};

/** search_files once with ripgrep (a logging wrapper first on PATH) and once without (the JavaScript search). */
const searchFilesScenario: Scenario = async (env) => {
  const realRg = await findOnPath("rg");
  if (!realRg) throw new Error("ripgrep (rg) must be on PATH for this test: apt-get install ripgrep");
  const bin = await mkdtemp(join(env.dir, "bin-"));
  const log = join(bin, "rg.log");
  await writeFile(join(bin, "rg"), `#!/bin/sh\necho "$@" >> '${log}'\nexec '${realRg}' "$@"\n`);
  await chmod(join(bin, "rg"), 0o755);
  const turns = [toolCall("search_files", { path: ".", regex: "TODO: \\w+", file_pattern: "*.{ts,py,md}" }), COMPLETE];

  const cwd = await workspace(env, SEARCHED);
  const [withRipgrep] = expectCompleted(await env.cli.run("Search", turns, { cwd, path: `${bin}${delimiter}${process.env.PATH ?? ""}` }), 2);
  expect(await readFile(log, "utf8")).toContain("--json");
  const [withoutRipgrep] = expectCompleted(await env.cli.run("Search", turns, { cwd, path: await mkdtemp(join(env.dir, "empty-path-")) }), 2);

  for (const result of [withRipgrep, withoutRipgrep]) {
    expect(result).toContain("src/tides.ts");
    expect(result).toContain("src/tides.ts\n1- export const high = 6;\n2: // TODO: low water\n3- export const low = 12;");
    expect(result).toContain("src/moon.py");
    expect(result).not.toContain("not searched");
  }
  expect(withoutRipgrep).toBe(withRipgrep);
};

async function findOnPath(command: string): Promise<string | undefined> {
  for (const folder of (process.env.PATH ?? "").split(delimiter).filter(Boolean)) {
    const candidate = join(folder, command);
    if (await access(candidate, constants.X_OK).then(() => true, () => false)) return candidate;
  }
  return undefined;
}

/** One file per grammar the tool ships, each outlined in the same task. */
const listCodeDefinitionNamesScenario: Scenario = async (env) => {
  expect(Object.keys(OUTLINE_SAMPLES).sort()).toEqual(LANGUAGES.map((spec) => spec.grammar).sort());
  const samples = Object.entries(OUTLINE_SAMPLES);
  for (const [grammar, sample] of samples) expect(languageForFile(sample.file)?.grammar).toBe(grammar);
  const cwd = await workspace(env, Object.fromEntries(samples.map(([, sample]) => [sample.file, sample.source])));
  const turns = [...samples.map(([, sample]) => toolCall("list_code_definition_names", { path: sample.file })), COMPLETE];
  const outlines = expectCompleted(await env.cli.run("Outline every file", turns, { cwd }), turns.length);
  samples.forEach(([, sample], i) => expect(outlines[i]).toContain([sample.file, ...sample.outline].join("\n")));
};

const executeCommandScenario: Scenario = async (env) => {
  const cwd = await workspace(env, {});
  const command = "echo made-by-command > made.txt && echo printed-by-command";
  const run = await env.cli.run("Run it", [toolCall("execute_command", { command, requires_approval: "false" }), COMPLETE], { cwd });
  const [result] = expectCompleted(run, 2);
  expect(await readFile(join(cwd, "made.txt"), "utf8")).toBe("made-by-command\n");
  expect(result).toContain("printed-by-command");
};

const askFollowupQuestionScenario: Scenario = async (env) => {
  const cwd = await workspace(env, {});
  const question = "Should the config be JSON or YAML?";
  const run = await env.cli.run("Ask me", [toolCall("ask_followup_question", { question, options: '["JSON","YAML"]' }), COMPLETE], { cwd });
  const [answer] = expectCompleted(run, 2);
  expect(run.stdout).toContain(question);
  expect(answer).toMatch(/<answer>\n[^\n]+\n<\/answer>/);
};

const attemptCompletionScenario: Scenario = async (env) => {
  const cwd = await workspace(env, {});
  const result = "Checked the workspace: nothing to do.";
  const run = await env.cli.run("Finish", [toolCall("attempt_completion", { result })], { cwd, args: ["--json"] });
  expectCompleted(run, 1);
  const messages = run.stdout.trim().split("\n").map((line) => JSON.parse(line) as { type: string; say?: string; text?: string });
  expect(messages.filter((m) => m.say === "completion_result").map((m) => m.text)).toEqual([result]);
};

const newTaskScenario: Scenario = async (env) => {
  const cwd = await workspace(env, {});
  const context = "Goal: tidy the docs. Done: README. Left: CHANGELOG.";
  const run = await env.cli.run("Hand over", [toolCall("new_task", { context }), COMPLETE], { cwd });
  expect(run.code, `stdout: ${run.stdout}`).toBe(0);
  expect(run.requests).toHaveLength(2);
  // The hand-over: the next request is a fresh conversation that starts from the context.
  const next = messageTexts(run.requests[1]);
  expect(next).toHaveLength(1);
  expect(next[0]).toContain(context);
};

const planModeRespondScenario: Scenario = async (env) => {
  const cwd = await workspace(env, { "notes.txt": "first line\n" });
  const plan = "1. Read notes.txt.\n2. Add a second line.";
  const run = await env.cli.run("Plan it", [toolCall("read_file", { path: "notes.txt" }), toolCall("plan_mode_respond", { response: plan })], { cwd, args: ["--plan"] });
  // --plan: the plan is printed and taken as it is; the run ends there.
  expectCompleted(run, 2);
  expect(run.stdout).toContain(plan);
};

const webFetchScenario: Scenario = async (env) => {
  const cwd = await workspace(env, {});
  const url = env.site.url("/article");
  // The site is on 127.0.0.1: fetched unasked only because the person lists the host.
  const run = await env.cli.run("Read the page", [toolCall("web_fetch", { url }), COMPLETE], { cwd, args: ["--sandbox-allow-domain", "127.0.0.1"] });
  const [page] = expectCompleted(run, 2);
  expect(page).toContain(ARTICLE_SENTENCE);
  expect(page).not.toContain(NAV_NOISE);
  expect(env.site.requests).toContain("/article");
};

/** `--mcp-config` naming server-everything from npm, run over stdio by the bundle's own transport. */
async function everythingConfig(env: ScenarioEnv): Promise<string[]> {
  const file = join(await mkdtemp(join(env.dir, "mcp-")), "mcp.json");
  await writeFile(file, JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [serverScript("server-everything"), "stdio"] } } }));
  return ["--mcp-config", file];
}

const useMcpToolScenario: Scenario = async (env) => {
  const cwd = await workspace(env, {});
  const call = toolCall("use_mcp_tool", { server_name: "everything", tool_name: "get-sum", arguments: '{"a": 19, "b": 23}' });
  const run = await env.cli.run("Add", [call, COMPLETE], { cwd, args: await everythingConfig(env) });
  const [sum] = expectCompleted(run, 2);
  expect(sum).toContain("42");
  expect(JSON.stringify(run.requests[0]?.body.system)).toContain("get-sum(a: number, b: number)");
};

const accessMcpResourceScenario: Scenario = async (env) => {
  const cwd = await workspace(env, {});
  const uri = "demo://resource/dynamic/text/7";
  const run = await env.cli.run("Read it", [toolCall("access_mcp_resource", { server_name: "everything", uri }), COMPLETE], { cwd, args: await everythingConfig(env) });
  const [resource] = expectCompleted(run, 2);
  expect(resource).toContain(`<resource uri="${uri}"`);
  expect(resource).toContain("Resource 7");
};

const SKILL_BODY = "Write the release notes from CHANGELOG.md, newest first, using template.md.";

/**
 * A workspace skill (in `.claude/skills/`): the prompt names it (not its body), use_skill in
 * both call forms returns the body and the folder's files; without --trust-workspace it is
 * neither named nor loaded, and the refusal says how to trust it.
 */
const useSkillScenario: Scenario = async (env) => {
  const cwd = await workspace(env, {
    ".claude/skills/release-notes/SKILL.md": `---\nname: release-notes\ndescription: Drafts release notes from the changelog.\n---\n\n# Release notes\n\n${SKILL_BODY}\n`,
    ".claude/skills/release-notes/template.md": "## {version}\n",
    ".claude/skills/release-notes/.env": "TOKEN=1\n",
  });
  const xml = await env.cli.run("Notes", [toolCall("use_skill", { name: "release-notes" }), COMPLETE], { cwd, args: ["--trust-workspace"] });
  const [loaded] = expectCompleted(xml, 2);
  expect(loaded).toContain(SKILL_BODY);
  expect(loaded).not.toContain("description:");
  expect(loaded).toContain("- template.md");
  // The guard's secret files are not even listed.
  expect(loaded).not.toContain(".env");
  const system = JSON.stringify(xml.requests[0]?.body.system);
  expect(system).toContain("- release-notes: Drafts release notes from the changelog.");
  expect(system).not.toContain(SKILL_BODY);
  // The prompt is the same in every request of the task (prompt caching).
  expect(JSON.stringify(xml.requests[1]?.body.system)).toBe(system);

  const native = await env.cli.run(
    "Notes",
    [{ toolCalls: [{ name: "use_skill", input: { name: "release-notes" } }] }, { toolCalls: [{ name: "attempt_completion", input: { result: "Done." } }] }],
    { cwd, args: ["--trust-workspace", "--native-tools"] },
  );
  expect(native.code, `stderr: ${native.stderr}`).toBe(0);
  expect(JSON.stringify(native.requests[1]?.body.messages)).toContain(SKILL_BODY);

  const untrusted = await env.cli.run("Notes", [toolCall("use_skill", { name: "release-notes" }), COMPLETE], { cwd });
  expect(untrusted.code, `stderr: ${untrusted.stderr}`).toBe(0);
  expect(JSON.stringify(untrusted.requests[0]?.body.system)).not.toContain("Drafts release notes");
  const [refused] = toolResults(untrusted);
  expect(refused).toContain("Run with --trust-workspace to use them.");
  expect(refused).not.toContain(SKILL_BODY);
};

export const SCENARIOS = {
  read_file: readFileScenario,
  write_to_file: writeToFileScenario,
  replace_in_file: replaceInFileScenario,
  list_files: listFilesScenario,
  search_files: searchFilesScenario,
  list_code_definition_names: listCodeDefinitionNamesScenario,
  execute_command: executeCommandScenario,
  ask_followup_question: askFollowupQuestionScenario,
  attempt_completion: attemptCompletionScenario,
  new_task: newTaskScenario,
  plan_mode_respond: planModeRespondScenario,
  web_fetch: webFetchScenario,
  use_mcp_tool: useMcpToolScenario,
  access_mcp_resource: accessMcpResourceScenario,
  use_skill: useSkillScenario,
} satisfies Record<ToolName, Scenario>;
