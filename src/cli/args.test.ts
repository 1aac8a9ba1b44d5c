import { describe, expect, it } from "vitest";
import { version } from "../../package.json";
import { parseCliArgs, VERSION } from "./args";

describe("parseCliArgs", () => {
  it("takes the task, provider, key and endpoint", () => {
    const options = parseCliArgs(["--provider", "openai", "--base-url", "http://127.0.0.1:9/v1", "fix", "the bug"], { OPENAI_API_KEY: "k" });
    expect(options).toMatchObject({ action: { kind: "new", task: "fix the bug" }, api: { provider: "openai", apiKey: "k", baseUrl: "http://127.0.0.1:9/v1" } });
  });

  it("passes the OpenAI API choice, and leaves it to the model and endpoint when absent", () => {
    expect(parseCliArgs(["--openai-api", "responses", "go"], {})).toMatchObject({ api: { openAiApi: "responses" } });
    const automatic = parseCliArgs(["go"], {});
    expect(typeof automatic === "object" && "openAiApi" in automatic.api).toBe(false);
  });

  it("takes --context-window as the context window override and --no-auto-condense, refusing a window that is no number", () => {
    const options = parseCliArgs(["--context-window", "32_000", "--no-auto-condense", "go"], {});
    expect(options).toMatchObject({ api: { contextWindowOverride: 32000 }, autoCondense: false });
    const plain = parseCliArgs(["go"], {});
    expect(typeof plain === "object" && "contextWindowOverride" in plain.api).toBe(false);
    expect(plain).toMatchObject({ autoCondense: true });
    for (const bad of ["big", "12.5", "-5", "100"]) expect(() => parseCliArgs([`--context-window=${bad}`, "go"], {})).toThrow(/--context-window takes a whole number of tokens, at least 1024/);
  });

  it("answers --help and --version before anything else, even without a task", () => {
    expect(parseCliArgs(["--help"], {})).toBe("help");
    expect(parseCliArgs(["--version", "--provider", "nonsense"], {})).toBe("version");
    expect(VERSION).toBe(`tandem ${version}`);
  });

  it("refuses an OpenAI API it does not know, and a missing task", () => {
    expect(() => parseCliArgs(["--openai-api", "soap", "go"], {})).toThrow(/Unknown OpenAI API "soap": use chat or responses/);
    expect(() => parseCliArgs([], {})).toThrow(/No task given/);
  });
});

describe("parseCliArgs: Plan and Act", () => {
  it("takes --plan or --act for a task or a resume; neither leaves the mode to the task", () => {
    expect(parseCliArgs(["--plan", "go"], {})).toMatchObject({ mode: "plan" });
    expect(parseCliArgs(["--resume", "last", "--act", "go on"], {})).toMatchObject({ mode: "act", action: { kind: "resume" } });
    const neither = parseCliArgs(["go"], {});
    expect(typeof neither === "object" && neither.mode).toBeUndefined();
  });

  it("refuses both at once, and either without a task", () => {
    expect(() => parseCliArgs(["--plan", "--act", "go"], {})).toThrow("--plan and --act contradict each other: give one.");
    expect(() => parseCliArgs(["--plan", "--list-tasks"], {})).toThrow("--plan goes with a task or --resume.");
  });
});

describe("parseCliArgs: workspace, saved tasks and approvals", () => {
  it("keeps the focus chain on by default; --no-focus-chain turns it off", () => {
    expect(parseCliArgs(["go"], {})).toMatchObject({ focusChain: true });
    expect(parseCliArgs(["--no-focus-chain", "go"], {})).toMatchObject({ focusChain: false });
  });

  it("reads rules files by default; --no-rules skips them, --custom-instructions adds text", () => {
    expect(parseCliArgs(["go"], {})).toMatchObject({ rules: true, customInstructions: "" });
    expect(parseCliArgs(["--no-rules", "--custom-instructions", "Use tabs.", "go"], {})).toMatchObject({ rules: false, customInstructions: "Use tabs." });
  });

  it("resolves a relative --cwd and --storage against the current folder", () => {
    expect(parseCliArgs(["--cwd", "ws", "--storage", "../store", "go"], {}, "/home/me/src")).toMatchObject({
      cwd: "/home/me/src/ws",
      storage: { kind: "dir", dir: "/home/me/store" },
    });
    expect(parseCliArgs(["go"], {}, "/home/me")).toMatchObject({ cwd: "/home/me", storage: { kind: "default" } });
  });

  it("reads --resume with or without an id, and a message after it", () => {
    expect(parseCliArgs(["--resume"], {})).toMatchObject({ action: { kind: "resume", taskId: "last" } });
    expect(parseCliArgs(["--resume", "--yolo"], {})).toMatchObject({ action: { kind: "resume", taskId: "last" }, yolo: true });
    expect(parseCliArgs(["--resume", "ab12", "carry", "on"], {})).toMatchObject({ action: { kind: "resume", taskId: "ab12", message: "carry on" } });
    expect(parseCliArgs(["--list-tasks"], {})).toMatchObject({ action: { kind: "list" } });
    expect(() => parseCliArgs(["--resume", "--no-storage"], {})).toThrow(/need saved tasks/);
  });

  it("turns --auto-approve names into the settings' switches", () => {
    expect(parseCliArgs(["--auto-approve", "edit,command-safe", "--auto-approve", "read-outside", "go"], {})).toMatchObject({
      autoApproval: { editFiles: true, executeSafeCommands: true, readFilesExternally: true },
    });
    expect(() => parseCliArgs(["--auto-approve", "all", "go"], {})).toThrow(/Unknown --auto-approve switch "all": use read, read-outside/);
  });
});

describe("parseCliArgs: the sandbox", () => {
  it("defaults to auto with the registry allow list, and takes the mode, network, domains and folders", () => {
    expect(parseCliArgs(["go"], {})).toMatchObject({ sandbox: { mode: "auto", network: "allowList", allowedDomains: [], writableFolders: ["~/.npm", "~/.cache"] } });
    const options = parseCliArgs(
      ["--sandbox", "on", "--sandbox-network", "none", "--sandbox-allow-domain", "api.github.com", "--sandbox-allow-domain", "*.example.com", "--sandbox-write", "~/.cargo", "go"],
      {},
    );
    expect(options).toMatchObject({ sandbox: { mode: "on", network: "none", allowedDomains: ["api.github.com", "*.example.com"], writableFolders: ["~/.npm", "~/.cache", "~/.cargo"] } });
  });

  it("refuses what it cannot use, naming the fix", () => {
    expect(() => parseCliArgs(["--sandbox", "maybe", "go"], {})).toThrow(/Unknown --sandbox "maybe": use auto, on, off/);
    expect(() => parseCliArgs(["--sandbox-network", "some", "go"], {})).toThrow(/use none, allowList, all/);
    expect(() => parseCliArgs(["--sandbox-allow-domain", "https://api.github.com/x", "go"], {})).toThrow(/scheme.*"api.github.com"/);
    expect(() => parseCliArgs(["--sandbox-write", " ", "go"], {})).toThrow(/needs a folder/);
  });
});

describe("parseCliArgs: the command allow-list", () => {
  it("is empty (the built-in list) unless given, and keeps each rule's words with single spaces", () => {
    expect(parseCliArgs(["go"], {})).toMatchObject({ commandAllowList: [] });
    expect(parseCliArgs(["--allow-command", "  git   status ", "--allow-command", "ls", "go"], {})).toMatchObject({ commandAllowList: ["git status", "ls"] });
  });

  it("refuses a rule that is not plain command words, or is empty", () => {
    expect(() => parseCliArgs(["--allow-command", "ls | sh", "go"], {})).toThrow('--allow-command: allowList rule "ls | sh" contains "|"');
    expect(() => parseCliArgs(["--allow-command", " ", "go"], {})).toThrow("--allow-command: allowList has an empty rule.");
  });
});

describe("parseCliArgs: MCP servers", () => {
  it("reads the global file by default, --mcp-config instead (resolved), the workspace's only with --trust-workspace", () => {
    expect(parseCliArgs(["go"], {}, "/home/me")).toMatchObject({ mcp: { kind: "on", trustWorkspace: false } });
    expect(parseCliArgs(["--mcp-config", "cfg/mcp.json", "--trust-workspace", "go"], {}, "/home/me")).toMatchObject({ mcp: { kind: "on", configFile: "/home/me/cfg/mcp.json", trustWorkspace: true } });
    expect(parseCliArgs(["--no-mcp", "go"], {})).toMatchObject({ mcp: { kind: "none" } });
  });

  it("refuses --no-mcp with --mcp-config; --trust-workspace with --no-mcp still trusts the workspace's hooks", () => {
    expect(() => parseCliArgs(["--no-mcp", "--mcp-config", "a.json", "go"], {})).toThrow(/--no-mcp contradicts/);
    expect(parseCliArgs(["--no-mcp", "--trust-workspace", "go"], {})).toMatchObject({ mcp: { kind: "none" }, trustWorkspace: true });
    expect(parseCliArgs(["go"], {})).toMatchObject({ trustWorkspace: false });
  });
});

describe("parseCliArgs: --notify", () => {
  it("keeps the command as typed, for a task or a resume; none by default", () => {
    const command = `notify-send Tandem "$TANDEM_NOTIFICATION"`;
    expect(parseCliArgs(["--notify", command, "go"], {})).toMatchObject({ notify: command });
    expect(parseCliArgs(["--resume", "last", "--notify", command], {})).toMatchObject({ notify: command });
    const plain = parseCliArgs(["go"], {});
    expect(typeof plain === "object" && "notify" in plain).toBe(false);
  });

  it("refuses an empty command, and one with nothing to notify about", () => {
    expect(() => parseCliArgs(["--notify", " ", "go"], {})).toThrow(/--notify needs a command/);
    expect(() => parseCliArgs(["--list-tasks", "--notify", "true"], {})).toThrow(/--notify goes with a task or --resume/);
  });
});

describe("parseCliArgs: the saved tasks' list and export", () => {
  it("takes --list-tasks with --json, --search, --all-workspaces and --sort", () => {
    expect(parseCliArgs(["--list-tasks"], {})).toMatchObject({ action: { kind: "list", allWorkspaces: false, sort: "newest" }, json: false });
    expect(parseCliArgs(["--list-tasks", "--json", "--search", " retry fetcher ", "--all-workspaces", "--sort", "cost"], {})).toMatchObject({
      action: { kind: "list", search: "retry fetcher", allWorkspaces: true, sort: "cost" },
      json: true,
    });
  });

  it("takes `tandem export TASK_ID [--output FILE]`, the file from the folder it runs in", () => {
    expect(parseCliArgs(["export", "abc123"], {}, "/here")).toMatchObject({ action: { kind: "export", taskId: "abc123" } });
    expect(parseCliArgs(["export", "abc123", "--output", "out/task.md"], {}, "/here")).toMatchObject({ action: { kind: "export", taskId: "abc123", output: "/here/out/task.md" } });
    // One word alone is still a task.
    expect(parseCliArgs(["export"], {})).toMatchObject({ action: { kind: "new", task: "export" } });
  });

  it("refuses each of their flags elsewhere, and their mistakes, in words", () => {
    expect(() => parseCliArgs(["--search", "x", "go"], {})).toThrow("--search goes with --list-tasks, not a task.");
    expect(() => parseCliArgs(["--all-workspaces", "--resume", "last"], {})).toThrow("--all-workspaces goes with --list-tasks, not a task.");
    expect(() => parseCliArgs(["export", "id", "--sort", "cost"], {})).toThrow("--sort goes with --list-tasks, not `tandem export`.");
    expect(() => parseCliArgs(["--output", "f.md", "go"], {})).toThrow("--output goes with `tandem export`.");
    expect(() => parseCliArgs(["--list-tasks", "--output", "f.md"], {})).toThrow("--output goes with `tandem export`.");
    expect(() => parseCliArgs(["--list-tasks", "--sort", "size"], {})).toThrow('Unknown --sort "size": use newest, oldest, cost, tokens.');
    expect(() => parseCliArgs(["--list-tasks", "--search", "  "], {})).toThrow("--search needs some text to look for.");
    expect(() => parseCliArgs(["export", "a", "b"], {})).toThrow(/`tandem export` takes one task id/);
    expect(() => parseCliArgs(["export", "a", "--no-storage"], {})).toThrow(/need saved tasks: leave out --no-storage/);
    expect(() => parseCliArgs(["--list-tasks", "go"], {})).toThrow("--list-tasks takes no task and no --resume.");
  });
});
