/** The CLI's own data folder, global rather than per workspace: `$XDG_DATA_HOME/tandem`, else `~/.local/share/tandem`. */
import { homedir } from "node:os";
import { join } from "node:path";

export function tandemDataFolder(env: NodeJS.ProcessEnv): string {
  return join(env.XDG_DATA_HOME || join(env.HOME || homedir(), ".local", "share"), "tandem");
}

/** The global rules folder: every .md/.txt file in it is a rule for every workspace. */
export function defaultRulesFolder(env: NodeJS.ProcessEnv): string {
  return join(tandemDataFolder(env), "rules");
}

/** The global hooks folder: an executable named after a hook point (PreToolUse, …) runs in every workspace. */
export function defaultHooksFolder(env: NodeJS.ProcessEnv): string {
  return join(tandemDataFolder(env), "hooks");
}

/** The global workflows folder: every .md file in it is a slash command (`/name`) in every workspace. */
export function defaultWorkflowsFolder(env: NodeJS.ProcessEnv): string {
  return join(tandemDataFolder(env), "workflows");
}
