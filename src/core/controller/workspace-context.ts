/**
 * What the Controller keeps of the workspace between tasks: its ignore rules (loaded at the first
 * task, kept in sync with the files, and made again when the secret-files setting changes), the
 * rules reader with its cache of unchanged files, and where the workflows are.
 */
import type { AgentSettings } from "../../shared/settings";
import { RulesReader, type LoadedRules } from "../context/rules";
import { IgnoreController } from "../ignore/ignore-controller";
import type { PathGuard } from "../ignore/path-guard";
import type { McpServers } from "../mcp/servers";
import { SlashCommands } from "../slash";

export interface WorkspaceContextOptions {
  readonly root: string;
  settings(): AgentSettings;
  /** `globalFolder` is `<Tandem storage>/rules/`; `files` false reads none (the CLI's --no-rules). */
  readonly rules?: { readonly globalFolder?: string; readonly files?: boolean };
  /** `globalFolder` is `<Tandem storage>/workflows/`; the workspace's are always read. */
  readonly workflows?: { readonly globalFolder?: string };
}

export class WorkspaceContext {
  private ignore: { allowSecretFiles: boolean; controller: Promise<IgnoreController> } | undefined;
  private readonly rulesReader = new RulesReader();

  constructor(private readonly options: WorkspaceContextOptions) {}

  /** The guard tools are judged by now. */
  async guard(): Promise<IgnoreController> {
    const allowSecretFiles = this.options.settings().allowSecretFiles;
    if (this.ignore?.allowSecretFiles !== allowSecretFiles) {
      const previous = this.ignore;
      this.ignore = { allowSecretFiles, controller: IgnoreController.create(this.options.root, { allowSecretFiles }) };
      (await previous?.controller)?.dispose();
    }
    return this.ignore.controller;
  }

  /** The rules as they are now, for the next request (and the panel's list). */
  async readRules(guard?: PathGuard): Promise<LoadedRules> {
    const settings = this.options.settings();
    const rules = this.options.rules;
    return this.rulesReader.read({
      roots: [this.options.root],
      globalFolder: rules?.globalFolder,
      files: rules?.files,
      guard: guard ?? (await this.guard()),
      toggles: settings.ruleToggles,
      customInstructions: settings.customInstructions,
    });
  }

  /** The slash commands of this workspace (core/slash), its workflows judged by `guard`. */
  slashCommands(guard: PathGuard, mcp: McpServers | undefined): SlashCommands {
    return new SlashCommands({ roots: [this.options.root], globalFolder: this.options.workflows?.globalFolder, guard }, mcp);
  }

  /** Stops watching the ignore files. */
  async dispose(): Promise<void> {
    const ignore = this.ignore;
    this.ignore = undefined;
    (await ignore?.controller)?.dispose();
  }
}
