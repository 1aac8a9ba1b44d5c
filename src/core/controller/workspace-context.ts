/**
 * What the Controller keeps of the workspace between tasks: its ignore rules (one set per folder,
 * loaded at the first task, kept in sync with the files, and made again when the secret-files
 * setting or the set of folders changes), the rules reader with its cache of unchanged files, and
 * where the workflows are.
 */
import type { WorkspaceRoot } from "../../host/bridge";
import type { AgentSettings } from "../../shared/settings";
import { RulesReader, type LoadedRules } from "../context/rules";
import type { PathGuard } from "../ignore/path-guard";
import { WorkspaceGuard } from "../ignore/workspace-guard";
import type { McpServers } from "../mcp/servers";
import { SlashCommands } from "../slash";
import { WorkspaceRoots } from "../util/workspace-roots";

export interface WorkspaceContextOptions {
  /** The workspace's folders now (the host's: they may change between tasks). */
  roots(): readonly WorkspaceRoot[];
  settings(): AgentSettings;
  /** `globalFolder` is `<Tandem storage>/rules/`; `files` false reads none (the CLI's --no-rules). */
  readonly rules?: { readonly globalFolder?: string; readonly files?: boolean };
  /** `globalFolder` is `<Tandem storage>/workflows/`; the workspace's are read unless `workspace` says no (VS Code's Restricted Mode). */
  readonly workflows?: { readonly globalFolder?: string; readonly workspace?: () => boolean };
}

export class WorkspaceContext {
  private ignore: { key: string; controller: Promise<WorkspaceGuard> } | undefined;
  private readonly rulesReader = new RulesReader();

  constructor(private readonly options: WorkspaceContextOptions) {}

  /** The workspace's folders as they are now. */
  roots(): WorkspaceRoots {
    return WorkspaceRoots.of(this.options.roots());
  }

  /** The guard tools are judged by now. */
  async guard(): Promise<WorkspaceGuard> {
    const allowSecretFiles = this.options.settings().allowSecretFiles;
    const roots = this.roots();
    const key = `${allowSecretFiles}\0${roots.key}`;
    if (this.ignore?.key !== key) {
      const previous = this.ignore;
      this.ignore = { key, controller: WorkspaceGuard.create(roots.paths, { allowSecretFiles }) };
      (await previous?.controller)?.dispose();
    }
    return this.ignore.controller;
  }

  /** The rules as they are now, for the next request (and the panel's list). */
  async readRules(guard?: PathGuard): Promise<LoadedRules> {
    const settings = this.options.settings();
    const rules = this.options.rules;
    return this.rulesReader.read({
      roots: this.roots().list,
      globalFolder: rules?.globalFolder,
      files: rules?.files,
      guard: guard ?? (await this.guard()),
      toggles: settings.ruleToggles,
      customInstructions: settings.customInstructions,
    });
  }

  /** The slash commands of this workspace (core/slash), its workflows judged by `guard`. */
  slashCommands(guard: PathGuard, mcp: McpServers | undefined): SlashCommands {
    const roots = this.options.workflows?.workspace?.() === false ? [] : this.roots().paths;
    return new SlashCommands({ roots, globalFolder: this.options.workflows?.globalFolder, guard }, mcp);
  }

  /** Stops watching the ignore files. */
  async dispose(): Promise<void> {
    const ignore = this.ignore;
    this.ignore = undefined;
    (await ignore?.controller)?.dispose();
  }
}
