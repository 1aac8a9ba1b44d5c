/**
 * The mapping between Tandem's settings shapes and the `tandem.*` keys of VS Code's configuration
 * (declared in package.json). Pure, so it is tested in plain Node. settings.json is edited by
 * hand, so every value read is checked; a bad one falls back to its default and is reported.
 * Changes from the webview are checked too, and a bad one is refused with a clear error.
 */
import type { ApiSettings, OpenAiApiSetting, ProviderId } from "../../shared/protocol";
import { domainProblem } from "../../shared/sandbox-domains";
import { AUTO_APPROVAL_SWITCHES, autoApprovalSwitch } from "../../shared/auto-approval";
import { DEFAULT_PROVIDER, isProviderId, PROVIDER_IDS } from "../../shared/providers";
import {
  AGENT_MODES,
  DEFAULT_AGENT_SETTINGS,
  DEFAULT_AUTO_APPROVAL,
  DEFAULT_SANDBOX_SETTINGS,
  FOCUS_CHAIN_LIMITS,
  REQUEST_LIMITS,
  type AgentMode,
  type AgentSettings,
  type AutoApprovalSettings,
  type SandboxMode,
  type SandboxNetwork,
  type SandboxSettings,
} from "../../shared/settings";

/** Reads one key below `tandem.` (the effective value, defaults included). */
export type ConfigReader = (key: string) => unknown;

export interface ReadResult<T> {
  readonly value: T;
  /** One sentence per setting that was invalid and replaced by its default. */
  readonly problems: readonly string[];
}

/** A key below `tandem.` and the value to store; undefined removes the setting. */
export type ConfigEntry = readonly [key: string, value: unknown];

const TOOL_CALL_MODES: readonly AgentSettings["toolCallMode"][] = ["xml", "native"];
const OPENAI_APIS: readonly OpenAiApiSetting[] = ["auto", "chat", "responses"];
const MISTAKE_LIMIT_MAX = 100;
const SANDBOX_MODES: readonly SandboxMode[] = ["auto", "on", "off"];
const SANDBOX_NETWORKS: readonly SandboxNetwork[] = ["none", "allowList", "all"];

/** A setting that could not be used; the message names it. */
export class SettingValueError extends Error {
  override readonly name = "SettingValueError";
}

type Check<T> = (value: unknown) => T | undefined;
/** What a value must be; a function when the sentence can name what is wrong with this value. */
type Expected = string | ((raw: unknown) => string);
const expectedFor = (expected: Expected, raw: unknown): string => (typeof expected === "string" ? expected : expected(raw));

const isBoolean: Check<boolean> = (v) => (typeof v === "boolean" ? v : undefined);
const wholeNumber = (min: number, max: number): Check<number> => (v) => (Number.isInteger(v) && (v as number) >= min && (v as number) <= max ? (v as number) : undefined);
const isMistakeLimit = wholeNumber(1, MISTAKE_LIMIT_MAX);
const isRequestRetries = wholeNumber(REQUEST_LIMITS.requestRetries.min, REQUEST_LIMITS.requestRetries.max);
const isStallTimeout = wholeNumber(REQUEST_LIMITS.stallTimeoutSeconds.min, REQUEST_LIMITS.stallTimeoutSeconds.max);
const isHookTimeout = wholeNumber(REQUEST_LIMITS.hookTimeoutSeconds.min, REQUEST_LIMITS.hookTimeoutSeconds.max);
const isReminderInterval = wholeNumber(FOCUS_CHAIN_LIMITS.reminderInterval.min, FOCUS_CHAIN_LIMITS.reminderInterval.max);
/** A spending cap: 0 is none; dollars with cents, or whole requests. */
const isCostCap: Check<number> = (v) => (typeof v === "number" && Number.isFinite(v) && v >= 0 && v <= 100_000 ? v : undefined);
const isRequestCap = wholeNumber(0, 100_000);
const isToolCallMode: Check<AgentSettings["toolCallMode"]> = (v) => TOOL_CALL_MODES.find((m) => m === v);
const isProvider: Check<ProviderId> = (v) => (isProviderId(v) ? v : undefined);
/** "auto" (the default) is stored as no setting at all. */
const isOpenAiApi: Check<OpenAiApiSetting | null> = (v) => (v === undefined || v === null || v === "auto" ? null : OPENAI_APIS.find((a) => a === v));
const isStringList: Check<string[]> = (v) =>
  Array.isArray(v) && v.every((item) => typeof item === "string") ? v.map((item: string) => item.trim()).filter(Boolean) : undefined;
const isText: Check<string> = (v) => (typeof v === "string" ? v : undefined);
const isTrimmedText: Check<string> = (v) => (typeof v === "string" ? v.trim() : undefined);
const isToggleMap: Check<Record<string, boolean>> = (v) =>
  typeof v === "object" && v !== null && !Array.isArray(v) && Object.values(v).every((b) => typeof b === "boolean") ? { ...(v as Record<string, boolean>) } : undefined;
const isAgentMode: Check<AgentMode> = (v) => AGENT_MODES.find((m) => m === v);
const isSandboxMode: Check<SandboxMode> = (v) => SANDBOX_MODES.find((m) => m === v);
const isSandboxNetwork: Check<SandboxNetwork> = (v) => SANDBOX_NETWORKS.find((n) => n === v);

const isDomainList: Check<string[]> = (v) => {
  const list = isStringList(v);
  return list?.every((domain) => !domainProblem(domain)) ? list : undefined;
};
const domainListExpected = (raw: unknown): string => {
  const first = Array.isArray(raw) ? raw.map((d) => (typeof d === "string" ? domainProblem(d.trim()) : undefined)).find(Boolean) : undefined;
  return first ? `a list of domains such as "registry.example.com" or "*.example.com" (${first})` : EXPECTED.domainList;
};

/** Optional text: empty means unset. */
const isOptionalText: Check<string | null> = (v) => (v === undefined || v === null ? null : typeof v === "string" ? v.trim() || null : undefined);
/** Optional positive whole number: null or 0 means unset. */
const isOptionalCount: Check<number | null> = (v) =>
  v === undefined || v === null || v === 0 ? null : Number.isInteger(v) && (v as number) > 0 ? (v as number) : undefined;

const EXPECTED = {
  boolean: "true or false",
  mistakeLimit: `a whole number from 1 to ${MISTAKE_LIMIT_MAX}`,
  requestRetries: `a whole number from ${REQUEST_LIMITS.requestRetries.min} to ${REQUEST_LIMITS.requestRetries.max}`,
  stallTimeout: `a whole number of seconds from ${REQUEST_LIMITS.stallTimeoutSeconds.min} to ${REQUEST_LIMITS.stallTimeoutSeconds.max}`,
  hookTimeout: `a whole number of seconds from ${REQUEST_LIMITS.hookTimeoutSeconds.min} to ${REQUEST_LIMITS.hookTimeoutSeconds.max}`,
  reminderInterval: `a whole number of requests from ${FOCUS_CHAIN_LIMITS.reminderInterval.min} to ${FOCUS_CHAIN_LIMITS.reminderInterval.max}`,
  toolCallMode: `one of ${TOOL_CALL_MODES.join(", ")}`,
  provider: `one of ${PROVIDER_IDS.join(", ")}`,
  openAiApi: `one of ${OPENAI_APIS.join(", ")}`,
  stringList: "a list of strings",
  sandboxMode: `one of ${SANDBOX_MODES.join(", ")}`,
  sandboxNetwork: `one of ${SANDBOX_NETWORKS.join(", ")}`,
  domainList: 'a list of domains such as "registry.example.com" or "*.example.com"',
  folderList: 'a list of folders such as "~/.npm"',
  optionalText: "a string",
  text: "a string",
  toggleMap: 'an object of rule names and true/false, e.g. {".clinerules/old.md": false}',
  optionalCount: "a positive whole number (or empty)",
  agentMode: `one of ${AGENT_MODES.join(", ")}`,
  costCap: "a number of US dollars, 0 or more (0: no cap)",
  requestCap: "a whole number of requests, 0 or more (0: no cap)",
};

/** Reads the value of `key`, or its fallback with a problem noted. */
class Reader {
  readonly problems: string[] = [];
  constructor(private readonly get: ConfigReader) {}

  read<T>(key: string, check: Check<T>, fallback: T, expected: Expected): T {
    const raw = this.get(key);
    if (raw === undefined) return fallback;
    const value = check(raw);
    if (value !== undefined) return value;
    this.problems.push(`tandem.${key} must be ${expectedFor(expected, raw)}, not ${JSON.stringify(raw)}; using ${JSON.stringify(fallback)}.`);
    return fallback;
  }
}

export function readAgentSettings(get: ConfigReader): ReadResult<AgentSettings> {
  const r = new Reader(get);
  const d = DEFAULT_AGENT_SETTINGS;
  const autoApproval = {} as AutoApprovalSettings;
  for (const name of Object.keys(DEFAULT_AUTO_APPROVAL) as (keyof AutoApprovalSettings)[]) {
    autoApproval[name] = r.read(autoApprovalSwitch(name).setting, isBoolean, DEFAULT_AUTO_APPROVAL[name], EXPECTED.boolean);
  }
  const value: AgentSettings = {
    yolo: r.read("yoloMode", isBoolean, d.yolo, EXPECTED.boolean),
    autoApproval,
    mistakeLimit: r.read("mistakeLimit", isMistakeLimit, d.mistakeLimit, EXPECTED.mistakeLimit),
    toolCallMode: r.read("toolCallMode", isToolCallMode, d.toolCallMode, EXPECTED.toolCallMode),
    allowSecretFiles: r.read("allowSecretFiles", isBoolean, d.allowSecretFiles, EXPECTED.boolean),
    commandAllowList: r.read("commandAllowList", isStringList, [...d.commandAllowList], EXPECTED.stringList),
    commandDenyGuard: r.read("commandDenyGuard", isBoolean, d.commandDenyGuard, EXPECTED.boolean),
    requestRetries: r.read("requestRetries", isRequestRetries, d.requestRetries, EXPECTED.requestRetries),
    stallTimeoutSeconds: r.read("stallTimeoutSeconds", isStallTimeout, d.stallTimeoutSeconds, EXPECTED.stallTimeout),
    sandbox: readSandboxSettings(r),
    checkpoints: r.read("checkpoints.enabled", isBoolean, d.checkpoints, EXPECTED.boolean),
    customInstructions: r.read("customInstructions", isText, d.customInstructions, EXPECTED.text),
    ruleToggles: r.read("rules.toggles", isToggleMap, { ...d.ruleToggles }, EXPECTED.toggleMap),
    hooks: r.read("hooks.enabled", isBoolean, d.hooks, EXPECTED.boolean),
    hookTimeoutSeconds: r.read("hooks.timeoutSeconds", isHookTimeout, d.hookTimeoutSeconds, EXPECTED.hookTimeout),
    focusChain: r.read("focusChain.enabled", isBoolean, d.focusChain, EXPECTED.boolean),
    focusChainReminderInterval: r.read("focusChain.reminderInterval", isReminderInterval, d.focusChainReminderInterval, EXPECTED.reminderInterval),
    autoCondense: r.read("autoCondense", isBoolean, d.autoCondense, EXPECTED.boolean),
    defaultMode: r.read("defaultMode", isAgentMode, d.defaultMode, EXPECTED.agentMode),
    planModeModelId: r.read("planModeModelId", isTrimmedText, d.planModeModelId, EXPECTED.text),
    maxCostPerTask: r.read("maxCostPerTask", isCostCap, d.maxCostPerTask, EXPECTED.costCap),
    maxRequestsPerTask: r.read("maxRequestsPerTask", isRequestCap, d.maxRequestsPerTask, EXPECTED.requestCap),
  };
  return { value, problems: r.problems };
}

/**
 * The mode is `tandem.sandbox.mode`, not `tandem.sandbox`: VS Code keeps settings as one tree, and a
 * key that is also the prefix of others (`tandem.sandbox` and `tandem.sandbox.network`) loses one of them.
 */
const SANDBOX_KEYS: Readonly<Record<keyof SandboxSettings, { key: string; check: Check<unknown>; expected: Expected }>> = {
  mode: { key: "sandbox.mode", check: isSandboxMode, expected: EXPECTED.sandboxMode },
  network: { key: "sandbox.network", check: isSandboxNetwork, expected: EXPECTED.sandboxNetwork },
  allowedDomains: { key: "sandbox.allowedDomains", check: isDomainList, expected: domainListExpected },
  writableFolders: { key: "sandbox.writableFolders", check: isStringList, expected: EXPECTED.folderList },
};

function readSandboxSettings(r: Reader): SandboxSettings {
  const d = DEFAULT_SANDBOX_SETTINGS;
  return {
    mode: r.read(SANDBOX_KEYS.mode.key, isSandboxMode, d.mode, EXPECTED.sandboxMode),
    network: r.read(SANDBOX_KEYS.network.key, isSandboxNetwork, d.network, EXPECTED.sandboxNetwork),
    allowedDomains: r.read(SANDBOX_KEYS.allowedDomains.key, isDomainList, [...d.allowedDomains], domainListExpected),
    writableFolders: r.read(SANDBOX_KEYS.writableFolders.key, isStringList, [...d.writableFolders], EXPECTED.folderList),
  };
}

export function readApiSettings(get: ConfigReader): ReadResult<ApiSettings> {
  const r = new Reader(get);
  const value: ApiSettings = { provider: r.read("apiProvider", isProvider, DEFAULT_PROVIDER, EXPECTED.provider) };
  const baseUrl = r.read("baseUrl", isOptionalText, null, EXPECTED.optionalText);
  const modelId = r.read("modelId", isOptionalText, null, EXPECTED.optionalText);
  const contextWindowOverride = r.read("contextWindowOverride", isOptionalCount, null, EXPECTED.optionalCount);
  const thinkingBudgetTokens = r.read("thinkingBudgetTokens", isOptionalCount, null, EXPECTED.optionalCount);
  const openAiApi = r.read("openAiApi", isOpenAiApi, null, EXPECTED.openAiApi);
  for (const name of PROVIDER_TEXT_SETTINGS) {
    const text = r.read(name, isOptionalText, null, EXPECTED.optionalText);
    if (text !== null) value[name] = text;
  }
  if (baseUrl !== null) value.baseUrl = baseUrl;
  if (modelId !== null) value.modelId = modelId;
  if (contextWindowOverride !== null) value.contextWindowOverride = contextWindowOverride;
  if (thinkingBudgetTokens !== null) value.thinkingBudgetTokens = thinkingBudgetTokens;
  if (openAiApi !== null) value.openAiApi = openAiApi;
  return { value, problems: r.problems };
}

/** Whether a question or a task's end is notified while the window is in the background: the editor's own setting, which the core never reads. */
export function readNotificationsEnabled(get: ConfigReader): ReadResult<boolean> {
  const r = new Reader(get);
  return { value: r.read("notifications.enabled", isBoolean, true, EXPECTED.boolean), problems: r.problems };
}

/** Checks a change for the store; throws SettingValueError naming the first bad value. */
function entry<T>(key: string, raw: unknown, check: Check<T>, expected: Expected): ConfigEntry {
  const value = check(raw);
  if (value === undefined) throw new SettingValueError(`tandem.${key} must be ${expectedFor(expected, raw)}; got ${JSON.stringify(raw) ?? "undefined"}.`);
  return [key, value];
}

const AGENT_KEYS: Readonly<Record<Exclude<keyof AgentSettings, "autoApproval" | "sandbox">, { key: string; check: Check<unknown>; expected: string }>> = {
  yolo: { key: "yoloMode", check: isBoolean, expected: EXPECTED.boolean },
  mistakeLimit: { key: "mistakeLimit", check: isMistakeLimit, expected: EXPECTED.mistakeLimit },
  toolCallMode: { key: "toolCallMode", check: isToolCallMode, expected: EXPECTED.toolCallMode },
  allowSecretFiles: { key: "allowSecretFiles", check: isBoolean, expected: EXPECTED.boolean },
  commandAllowList: { key: "commandAllowList", check: isStringList, expected: EXPECTED.stringList },
  commandDenyGuard: { key: "commandDenyGuard", check: isBoolean, expected: EXPECTED.boolean },
  requestRetries: { key: "requestRetries", check: isRequestRetries, expected: EXPECTED.requestRetries },
  stallTimeoutSeconds: { key: "stallTimeoutSeconds", check: isStallTimeout, expected: EXPECTED.stallTimeout },
  checkpoints: { key: "checkpoints.enabled", check: isBoolean, expected: EXPECTED.boolean },
  customInstructions: { key: "customInstructions", check: isText, expected: EXPECTED.text },
  ruleToggles: { key: "rules.toggles", check: isToggleMap, expected: EXPECTED.toggleMap },
  hooks: { key: "hooks.enabled", check: isBoolean, expected: EXPECTED.boolean },
  hookTimeoutSeconds: { key: "hooks.timeoutSeconds", check: isHookTimeout, expected: EXPECTED.hookTimeout },
  focusChain: { key: "focusChain.enabled", check: isBoolean, expected: EXPECTED.boolean },
  focusChainReminderInterval: { key: "focusChain.reminderInterval", check: isReminderInterval, expected: EXPECTED.reminderInterval },
  autoCondense: { key: "autoCondense", check: isBoolean, expected: EXPECTED.boolean },
  defaultMode: { key: "defaultMode", check: isAgentMode, expected: EXPECTED.agentMode },
  planModeModelId: { key: "planModeModelId", check: isTrimmedText, expected: EXPECTED.text },
  maxCostPerTask: { key: "maxCostPerTask", check: isCostCap, expected: EXPECTED.costCap },
  maxRequestsPerTask: { key: "maxRequestsPerTask", check: isRequestCap, expected: EXPECTED.requestCap },
};

export function agentSettingsEntries(change: Readonly<Record<string, unknown>>): ConfigEntry[] {
  const entries: ConfigEntry[] = [];
  for (const [name, raw] of Object.entries(change)) {
    if (name === "autoApproval") {
      entries.push(...autoApprovalEntries(raw));
      continue;
    }
    if (name === "sandbox") {
      entries.push(...sandboxEntries(raw));
      continue;
    }
    const spec = Object.hasOwn(AGENT_KEYS, name) ? AGENT_KEYS[name as keyof typeof AGENT_KEYS] : undefined;
    if (!spec) throw new SettingValueError(`Unknown Tandem setting "${name}".`);
    entries.push(entry(spec.key, raw, spec.check, spec.expected));
  }
  return entries;
}

function autoApprovalEntries(raw: unknown): ConfigEntry[] {
  if (typeof raw !== "object" || raw === null) throw new SettingValueError("autoApproval must be an object of true/false switches.");
  return Object.entries(raw).map(([name, value]) => {
    const known = AUTO_APPROVAL_SWITCHES.find((s) => s.key === name);
    if (!known) throw new SettingValueError(`Unknown auto-approval switch "${name}".`);
    return entry(known.setting, value, isBoolean, EXPECTED.boolean);
  });
}

/** A change may name only some of the sandbox's settings (the panel sends one list at a time). */
function sandboxEntries(raw: unknown): ConfigEntry[] {
  if (typeof raw !== "object" || raw === null) throw new SettingValueError("sandbox must be an object of sandbox settings.");
  return Object.entries(raw).map(([name, value]) => {
    const spec = Object.hasOwn(SANDBOX_KEYS, name) ? SANDBOX_KEYS[name as keyof SandboxSettings] : undefined;
    if (!spec) throw new SettingValueError(`Unknown sandbox setting "${name}".`);
    return entry(spec.key, value, spec.check, spec.expected);
  });
}

/** The providers' own settings (src/shared/providers.ts): optional text, each under its own name. */
const PROVIDER_TEXT_SETTINGS = ["awsRegion", "awsProfile", "vertexProjectId", "vertexRegion"] as const satisfies readonly (keyof ApiSettings)[];

const API_KEYS: Readonly<Record<keyof ApiSettings, { key: string; check: Check<unknown>; expected: string }>> = {
  provider: { key: "apiProvider", check: isProvider, expected: EXPECTED.provider },
  baseUrl: { key: "baseUrl", check: isOptionalText, expected: EXPECTED.optionalText },
  modelId: { key: "modelId", check: isOptionalText, expected: EXPECTED.optionalText },
  contextWindowOverride: { key: "contextWindowOverride", check: isOptionalCount, expected: EXPECTED.optionalCount },
  thinkingBudgetTokens: { key: "thinkingBudgetTokens", check: isOptionalCount, expected: EXPECTED.optionalCount },
  openAiApi: { key: "openAiApi", check: isOpenAiApi, expected: EXPECTED.openAiApi },
  awsRegion: { key: "awsRegion", check: isOptionalText, expected: EXPECTED.optionalText },
  awsProfile: { key: "awsProfile", check: isOptionalText, expected: EXPECTED.optionalText },
  vertexProjectId: { key: "vertexProjectId", check: isOptionalText, expected: EXPECTED.optionalText },
  vertexRegion: { key: "vertexRegion", check: isOptionalText, expected: EXPECTED.optionalText },
};

/** Optional settings that are cleared are removed from settings.json (undefined), not stored as null. */
export function apiSettingsEntries(change: Readonly<Record<string, unknown>>): ConfigEntry[] {
  return Object.entries(change).map(([name, raw]) => {
    const spec = Object.hasOwn(API_KEYS, name) ? API_KEYS[name as keyof ApiSettings] : undefined;
    if (!spec) throw new SettingValueError(`Unknown Tandem API setting "${name}".`);
    const [key, value] = entry(spec.key, raw, spec.check, spec.expected);
    return [key, value === null ? undefined : value];
  });
}
