import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  agentSettingsEntries,
  apiSettingsEntries,
  readAgentSettings,
  readApiSettings,
  readNotificationsEnabled,
  SettingValueError,
} from "../../src/host/vscode/settings-keys";
import { DEFAULT_AGENT_SETTINGS } from "../../src/shared/settings";

/** The configuration as package.json declares it: each key's default, as VS Code would return it. */
const manifest = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
  contributes: { configuration: { properties: Record<string, { default?: unknown; type?: unknown; enum?: unknown[] }> } };
};
const declared = manifest.contributes.configuration.properties;
const defaults = (overrides: Record<string, unknown> = {}) => (key: string) => (key in overrides ? overrides[key] : declared[`tandem.${key}`]?.default);

describe("what a workspace's own settings cannot change", () => {
  const scoped = manifest as unknown as {
    contributes: { configuration: { properties: Record<string, { scope?: string }> } };
    capabilities?: { untrustedWorkspaces?: { supported?: unknown; restrictedConfigurations?: string[] } };
  };
  const properties = scoped.contributes.configuration.properties;
  it("approvals, the guard, the sandbox, spending caps and where requests go are user settings only (a cloned repository's .vscode/settings.json set YOLO)", () => {
    const guarding = Object.keys(properties).filter((key) => /^tandem\.(yoloMode|autoApprove\.|allowSecretFiles|command|sandbox\.|maxCost|maxRequests|mistakeLimit|hooks\.enabled|checkpoints\.enabled|apiProvider|baseUrl|aws|vertex|openAiApi)/.test(key));
    expect(guarding.length).toBeGreaterThan(25);
    expect(guarding.filter((key) => properties[key]?.scope !== "application")).toEqual([]);
  });

  it("declares limited support for Restricted Mode, whose restricted settings exist", () => {
    const untrusted = scoped.capabilities?.untrustedWorkspaces;
    expect(untrusted?.supported).toBe("limited");
    expect(untrusted?.restrictedConfigurations?.filter((key) => !(key in properties))).toEqual([]);
  });
});

describe("the declared configuration", () => {
  it("declares every key the store reads and writes, and no API key", () => {
    const written = [
      ...agentSettingsEntries({ ...DEFAULT_AGENT_SETTINGS }),
      ...apiSettingsEntries({ provider: "openai", baseUrl: "http://x", modelId: "m", contextWindowOverride: 1, thinkingBudgetTokens: 1, openAiApi: "chat" }),
      ...apiSettingsEntries({ awsRegion: "eu-west-1", awsProfile: "work", vertexProjectId: "p", vertexRegion: "global" }),
    ].map(([key]) => `tandem.${key}`);
    // Read by the editor's host alone (readNotificationsEnabled), set in settings.json by hand.
    const hostOnly = ["tandem.notifications.enabled"];
    expect(new Set([...written, ...hostOnly])).toEqual(new Set(Object.keys(declared)));
    expect(Object.keys(declared).filter((key) => /api.?key|password|credential/i.test(key))).toEqual([]);
  });

  it("has defaults that read back as the shared defaults, without problems", () => {
    expect(readAgentSettings(defaults())).toEqual({ value: DEFAULT_AGENT_SETTINGS, problems: [] });
    expect(readApiSettings(defaults())).toEqual({ value: { provider: "anthropic" }, problems: [] });
  });

  it("warns plainly in the YOLO description", () => {
    expect(String((declared["tandem.yoloMode"] as { description?: string }).description)).toMatch(/WARNING/);
  });
});

describe("readAgentSettings", () => {
  it("reads the custom instructions and the rules files' switches; a bad switch map is reported and replaced", () => {
    const read = readAgentSettings(defaults({ customInstructions: "Use tabs.", "rules.toggles": { "AGENTS.md": false } }));
    expect(read.problems).toEqual([]);
    expect(read.value).toMatchObject({ customInstructions: "Use tabs.", ruleToggles: { "AGENTS.md": false } });
    const bad = readAgentSettings(defaults({ "rules.toggles": { "AGENTS.md": "off" } }));
    expect(bad.value.ruleToggles).toEqual({});
    expect(bad.problems[0]).toContain("tandem.rules.toggles must be an object of rule names and true/false");
    expect(agentSettingsEntries({ ruleToggles: { ".clinerules/a.md": false } })).toEqual([["rules.toggles", { ".clinerules/a.md": false }]]);
    expect(() => agentSettingsEntries({ customInstructions: 3 })).toThrow(SettingValueError);
  });

  it("reads the hooks switch and timeout; a timeout out of range is reported and replaced", () => {
    const read = readAgentSettings(defaults({ "hooks.enabled": false, "hooks.timeoutSeconds": 5 }));
    expect(read.problems).toEqual([]);
    expect(read.value).toMatchObject({ hooks: false, hookTimeoutSeconds: 5 });
    const bad = readAgentSettings(defaults({ "hooks.timeoutSeconds": 0 }));
    expect(bad.value.hookTimeoutSeconds).toBe(30);
    expect(bad.problems[0]).toContain("tandem.hooks.timeoutSeconds must be a whole number of seconds from 1 to 600");
    expect(agentSettingsEntries({ hooks: true, hookTimeoutSeconds: 60 })).toEqual([["hooks.enabled", true], ["hooks.timeoutSeconds", 60]]);
  });

  it("reads the focus chain's switch and reminder interval; an interval out of range is reported and replaced", () => {
    const read = readAgentSettings(defaults({ "focusChain.enabled": false, "focusChain.reminderInterval": 3 }));
    expect(read).toMatchObject({ value: { focusChain: false, focusChainReminderInterval: 3 }, problems: [] });
    const bad = readAgentSettings(defaults({ "focusChain.reminderInterval": 0 }));
    expect(bad.value.focusChainReminderInterval).toBe(6);
    expect(bad.problems[0]).toContain("tandem.focusChain.reminderInterval must be a whole number of requests from 1 to 100");
    expect(agentSettingsEntries({ focusChain: false, focusChainReminderInterval: 10 })).toEqual([["focusChain.enabled", false], ["focusChain.reminderInterval", 10]]);
    expect(() => agentSettingsEntries({ focusChainReminderInterval: 2.5 })).toThrow(SettingValueError);
  });

  it("reads autoCondense (on unless set), refusing a value that is not true or false", () => {
    expect(readAgentSettings(defaults({})).value.autoCondense).toBe(true);
    expect(readAgentSettings(defaults({ autoCondense: false })).value.autoCondense).toBe(false);
    const bad = readAgentSettings(defaults({ autoCondense: "no" }));
    expect(bad.value.autoCondense).toBe(true);
    expect(bad.problems[0]).toContain("tandem.autoCondense must be true or false");
    expect(agentSettingsEntries({ autoCondense: false })).toEqual([["autoCondense", false]]);
    expect(() => agentSettingsEntries({ autoCondense: "off" })).toThrow(SettingValueError);
  });

  it("maps the keys onto the settings shape", () => {
    const read = readAgentSettings(
      defaults({ yoloMode: true, "autoApprove.editFiles": true, mistakeLimit: 7, toolCallMode: "native", commandAllowList: [" git status ", "", "ls"] }),
    );
    expect(read.problems).toEqual([]);
    expect(read.value).toMatchObject({ yolo: true, mistakeLimit: 7, toolCallMode: "native", commandAllowList: ["git status", "ls"] });
    expect(read.value.autoApproval.editFiles).toBe(true);
  });

  it("replaces hand-edited nonsense by the default and says which setting and why", () => {
    const read = readAgentSettings(defaults({ yoloMode: "yes", mistakeLimit: 0, toolCallMode: "json", commandAllowList: "git" }));
    expect(read.value).toEqual(DEFAULT_AGENT_SETTINGS);
    expect(read.problems).toEqual([
      'tandem.yoloMode must be true or false, not "yes"; using false.',
      "tandem.mistakeLimit must be a whole number from 1 to 100, not 0; using 3.",
      'tandem.toolCallMode must be one of xml, native, not "json"; using "xml".',
      'tandem.commandAllowList must be a list of strings, not "git"; using [].',
    ]);
  });
});

describe("the Plan/Act settings", () => {
  it("reads the default mode and the Plan mode model; a mode it does not know is reported and Act used", () => {
    expect(readAgentSettings(defaults({ defaultMode: "plan", planModeModelId: " claude-opus-5-5 " })).value).toMatchObject({ defaultMode: "plan", planModeModelId: "claude-opus-5-5" });
    const bad = readAgentSettings(defaults({ defaultMode: "sideways" }));
    expect(bad.value.defaultMode).toBe("act");
    expect(bad.problems).toEqual(['tandem.defaultMode must be one of plan, act, not "sideways"; using "act".']);
  });

  it("stores them from the panel, and refuses a mode it does not know", () => {
    expect(agentSettingsEntries({ defaultMode: "plan", planModeModelId: "claude-opus-5-5" })).toEqual([
      ["defaultMode", "plan"],
      ["planModeModelId", "claude-opus-5-5"],
    ]);
    expect(() => agentSettingsEntries({ defaultMode: "sideways" })).toThrow(SettingValueError);
  });
});

describe("readApiSettings", () => {
  it("treats empty text and null numbers as unset", () => {
    expect(readApiSettings(defaults({ apiProvider: "openai", baseUrl: "  ", modelId: "gpt-x", contextWindowOverride: null })).value).toEqual({
      provider: "openai",
      modelId: "gpt-x",
    });
  });

  it("reports a bad number", () => {
    const read = readApiSettings(defaults({ thinkingBudgetTokens: 1.5 }));
    expect(read.value.thinkingBudgetTokens).toBeUndefined();
    expect(read.problems).toHaveLength(1);
  });

  it("reads the OpenAI API choice; auto and a bad value (reported) leave it unset", () => {
    expect(readApiSettings(defaults({ openAiApi: "responses" })).value.openAiApi).toBe("responses");
    expect(readApiSettings(defaults({ openAiApi: "auto" }))).toEqual({ value: { provider: "anthropic" }, problems: [] });
    const bad = readApiSettings(defaults({ openAiApi: "graphql" }));
    expect(bad.value.openAiApi).toBeUndefined();
    expect(bad.problems).toEqual([expect.stringContaining("tandem.openAiApi must be one of auto, chat, responses")]);
  });
});

describe("apiSettingsEntries for the OpenAI API choice", () => {
  it("stores chat or responses, removes the setting for auto, refuses anything else", () => {
    expect(apiSettingsEntries({ openAiApi: "responses" })).toEqual([["openAiApi", "responses"]]);
    expect(apiSettingsEntries({ openAiApi: "auto" })).toEqual([["openAiApi", undefined]]);
    expect(() => apiSettingsEntries({ openAiApi: "soap" })).toThrow(/tandem.openAiApi must be one of auto, chat, responses/);
  });
});

describe("settings entries (changes from the panel)", () => {
  it("turns a change into configuration keys and values", () => {
    expect(agentSettingsEntries({ yolo: true, autoApproval: { ...DEFAULT_AGENT_SETTINGS.autoApproval, useMcp: true } })).toContainEqual([
      "autoApprove.useMcp",
      true,
    ]);
    expect(agentSettingsEntries({ yolo: true })).toEqual([["yoloMode", true]]);
  });

  it("removes optional API settings that were cleared", () => {
    expect(apiSettingsEntries({ baseUrl: "", contextWindowOverride: undefined, modelId: "m" })).toEqual([
      ["baseUrl", undefined],
      ["contextWindowOverride", undefined],
      ["modelId", "m"],
    ]);
  });

  it.each([
    [{ mistakeLimit: "3" }, /tandem.mistakeLimit must be a whole number/],
    [{ yolo: 1 }, /tandem.yoloMode must be true or false/],
    [{ apiKey: "sk-…" }, /Unknown Tandem setting "apiKey"/],
    [{ autoApproval: { deleteEverything: true } }, /Unknown auto-approval switch/],
    [{ autoApproval: null }, /autoApproval must be an object/],
  ])("refuses %j", (change, message) => {
    expect(() => agentSettingsEntries(change)).toThrow(SettingValueError);
    expect(() => agentSettingsEntries(change)).toThrow(message);
  });

  it("refuses an unknown provider or API setting", () => {
    expect(() => apiSettingsEntries({ provider: "mistral" })).toThrow(/tandem.apiProvider must be one of anthropic, openai, gemini, bedrock, vertex, openrouter, ollama, lmstudio, vscode-lm/);
    expect(() => apiSettingsEntries({ apiKey: "sk" })).toThrow(/Unknown Tandem API setting "apiKey"/);
  });
});

describe("the sandbox settings", () => {
  it("reads mode, network and lists into settings.sandbox, and the outside-the-sandbox switch into autoApproval", () => {
    const read = readAgentSettings(
      defaults({
        "sandbox.mode": "on",
        "sandbox.network": "none",
        "sandbox.allowedDomains": [" api.github.com ", "*.example.com", "registry.example.com:8443", ""],
        "sandbox.writableFolders": ["~/.npm", " ", "~/.cache"],
        "autoApprove.runOutsideSandbox": true,
      }),
    );
    expect(read.problems).toEqual([]);
    expect(read.value.sandbox).toEqual({
      mode: "on",
      network: "none",
      allowedDomains: ["api.github.com", "*.example.com", "registry.example.com:8443"],
      writableFolders: ["~/.npm", "~/.cache"],
    });
    expect(read.value.autoApproval.runOutsideSandbox).toBe(true);
  });

  it("replaces bad values by the defaults and says which setting and why", () => {
    const read = readAgentSettings(
      defaults({ "sandbox.mode": "strict", "sandbox.network": "some", "sandbox.writableFolders": "~/.npm", "autoApprove.runOutsideSandbox": "yes" }),
    );
    expect(read.value).toEqual(DEFAULT_AGENT_SETTINGS);
    expect(read.problems).toEqual([
      'tandem.autoApprove.runOutsideSandbox must be true or false, not "yes"; using false.',
      'tandem.sandbox.mode must be one of auto, on, off, not "strict"; using "auto".',
      'tandem.sandbox.network must be one of none, allowList, all, not "some"; using "allowList".',
      'tandem.sandbox.writableFolders must be a list of folders such as "~/.npm", not "~/.npm"; using ["~/.npm","~/.cache"].',
    ]);
  });

  it.each([
    ["https://api.github.com", '"https://api.github.com" has a scheme: write the domain alone, "api.github.com"'],
    ["api.github.com/repos", '"api.github.com/repos" has a path: write the domain alone, "api.github.com"'],
    ["api.github.com pypi.org", '"api.github.com pypi.org" has a space: one domain per entry'],
  ])("refuses the domain %j, naming the fix", (domain, why) => {
    const read = readAgentSettings(defaults({ "sandbox.allowedDomains": ["pypi.org", domain] }));
    expect(read.value.sandbox.allowedDomains).toEqual([]);
    expect(read.problems).toEqual([expect.stringContaining(`tandem.sandbox.allowedDomains must be a list of domains such as "registry.example.com" or "*.example.com" (${why})`)]);
    expect(() => agentSettingsEntries({ sandbox: { ...DEFAULT_AGENT_SETTINGS.sandbox, allowedDomains: [domain] } })).toThrow(why);
  });

  it("writes a change from the panel to the sandbox's keys, and refuses unknown or bad ones", () => {
    expect(agentSettingsEntries({ sandbox: { ...DEFAULT_AGENT_SETTINGS.sandbox, network: "all", writableFolders: ["~/.npm"] } })).toEqual([
      ["sandbox.mode", "auto"],
      ["sandbox.network", "all"],
      ["sandbox.allowedDomains", []],
      ["sandbox.writableFolders", ["~/.npm"]],
    ]);
    expect(agentSettingsEntries({ autoApproval: { ...DEFAULT_AGENT_SETTINGS.autoApproval, runOutsideSandbox: true } })).toContainEqual([
      "autoApprove.runOutsideSandbox",
      true,
    ]);
    expect(() => agentSettingsEntries({ sandbox: { mode: "maybe" } as never })).toThrow(/tandem.sandbox.mode must be one of auto, on, off/);
    expect(() => agentSettingsEntries({ sandbox: { proxy: "x" } as never })).toThrow(/Unknown sandbox setting "proxy"/);
    expect(() => agentSettingsEntries({ sandbox: null as never })).toThrow(/sandbox must be an object/);
  });

  it("declares no setting that is the prefix of another: VS Code's settings tree would drop one of them", () => {
    const keys = Object.keys(declared);
    expect(keys.filter((key) => keys.some((other) => other.startsWith(`${key}.`)))).toEqual([]);
  });

  it("describes the mode, the default allow list and the outside-the-sandbox switch", () => {
    const text = (key: string) => JSON.stringify(declared[key]);
    expect(text("tandem.sandbox.mode")).toMatch(/auto = on where available; on = refuse commands when it is not available/);
    expect(text("tandem.sandbox.network")).toMatch(/npm, PyPI, crates.io, the Go module proxy, Maven Central and RubyGems/);
    expect(text("tandem.autoApprove.runOutsideSandbox")).toMatch(/^.*Allow commands outside the sandbox/);
    for (const key of ["tandem.yoloMode", "tandem.commandDenyGuard"]) expect(text(key)).toMatch(/sandbox on[^]*Without a sandbox the guard alone judges commands/);
  });
});

describe("tandem.notifications.enabled", () => {
  it("is on by default, a user setting only, and a bad value is reported and taken as on", () => {
    expect(declared["tandem.notifications.enabled"]).toMatchObject({ type: "boolean", default: true, scope: "application" });
    expect(readNotificationsEnabled(defaults())).toEqual({ value: true, problems: [] });
    expect(readNotificationsEnabled(defaults({ "notifications.enabled": false })).value).toBe(false);
    expect(readNotificationsEnabled(defaults({ "notifications.enabled": "no" }))).toEqual({ value: true, problems: ['tandem.notifications.enabled must be true or false, not "no"; using true.'] });
  });
});
