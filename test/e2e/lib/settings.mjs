/**
 * The user settings.json written before code-server starts: a quiet workbench (no telemetry,
 * welcome pages, tips, update checks or trust prompts) plus the Tandem settings a test asks for.
 */
import { readFileSync, writeFileSync } from "node:fs";

const QUIET_WORKBENCH = {
  "telemetry.telemetryLevel": "off",
  "update.mode": "none",
  "workbench.startupEditor": "none",
  "workbench.welcomePage.walkthroughs.openOnInstall": false,
  "workbench.tips.enabled": false,
  "workbench.enableExperiments": false,
  "workbench.secondarySideBar.defaultVisibility": "hidden",
  "chat.commandCenter.enabled": false,
  "security.workspace.trust.enabled": false,
  "security.workspace.trust.startupPrompt": "never",
  "extensions.autoCheckUpdates": false,
  "extensions.autoUpdate": false,
  "extensions.ignoreRecommendations": true,
  "git.enabled": false,
  "npm.autoDetect": "off",
  "typescript.disableAutomaticTypeAcquisition": true,
  "terminal.integrated.enablePersistentSessions": false,
  "editor.accessibilitySupport": "off",
};

/**
 * The `tandem.*` settings for a test. Only what is given is written, so the extension's own
 * defaults apply to the rest.
 * @param {{ provider?: "anthropic" | "openai", baseUrl?: string, modelId?: string, yolo?: boolean,
 *           extra?: Record<string, unknown> }} options  `extra` holds keys below `tandem.`
 */
export function tandemSettings({ provider, baseUrl, modelId, yolo, extra = {} } = {}) {
  const settings = {};
  if (provider !== undefined) settings["tandem.apiProvider"] = provider;
  if (baseUrl !== undefined) settings["tandem.baseUrl"] = baseUrl;
  if (modelId !== undefined) settings["tandem.modelId"] = modelId;
  if (yolo !== undefined) settings["tandem.yoloMode"] = yolo;
  for (const [key, value] of Object.entries(extra)) settings[`tandem.${key}`] = value;
  return settings;
}

/** Writes settings.json; `overrides` win over the quiet-workbench defaults. */
export function writeUserSettings(file, overrides = {}) {
  writeFileSync(file, `${JSON.stringify({ ...QUIET_WORKBENCH, ...overrides }, null, 2)}\n`);
}

/** The value of `key` in settings.json once it is `expected` (or whatever it is after 10 s); a half-written file is read again. */
export async function savedSetting(file, key, expected) {
  const deadline = Date.now() + 10_000;
  let value;
  for (;;) {
    try {
      value = JSON.parse(readFileSync(file, "utf8"))[key];
    } catch {
      value = undefined;
    }
    if (value === expected || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
