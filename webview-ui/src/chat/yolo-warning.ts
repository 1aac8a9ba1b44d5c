import type { SandboxStatus } from "../../../src/shared/sandbox-status";

const YOLO_APPROVES =
  "YOLO approves every file edit and every command without asking you, inside the workspace and outside it, " +
  "including commands that delete files or reach the network.";
const GUARD_ALONE =
  "the command guard alone judges commands: it refuses the destructive ones it can read and any it cannot read; " +
  "scripts and programs a command starts are not checked.";
const STILL_ASKS = "Changes to .tandemignore, .git/, .vscode/ and .tandem/ still ask. Turn it on only where a mistake costs nothing.";

/** "reach only …" for a sandboxed command. */
function networkReach(sandbox: SandboxStatus): string {
  if (sandbox.network === "all") return "reach any host";
  if (sandbox.network === "none") return "reach no network";
  return `reach only the ${sandbox.allowedDomains.length} allowed domains`;
}

const withoutStop = (text: string) => text.trim().replace(/[.;:]+$/, "");

/**
 * What YOLO lets through, as the sandbox stands: commands confined, or the guard alone (and why
 * there is no sandbox). Unknown sandbox (the host has not said): only what holds either way.
 */
export function yoloWarning(sandbox: SandboxStatus | undefined, runOutsideSandbox = false): string {
  if (!sandbox) {
    return `${YOLO_APPROVES} The command guard refuses the destructive commands it can read and, with no sandbox, any command it cannot read; scripts and programs a command starts are not checked. ${STILL_ASKS}`;
  }
  if (sandbox.active) {
    const outside = runOutsideSandbox ? "A run outside the sandbox does not ask (your switch)." : "A run outside the sandbox still asks.";
    return (
      `YOLO approves every file edit and every command without asking you. Commands run in the sandbox (${sandbox.technology ?? "OS sandbox"}): ` +
      `they write only in the workspace, a temp folder and your listed folders, cannot read credential stores or ignored files, and ${networkReach(sandbox)}; ` +
      `the command guard still refuses the destructive ones it can read. ${outside} ${STILL_ASKS}`
    );
  }
  if (sandbox.mode === "off") return `${YOLO_APPROVES} The sandbox is off (tandem.sandbox.mode), so ${GUARD_ALONE} ${STILL_ASKS}`;
  const reason = sandbox.reason ? `: ${withoutStop(sandbox.reason)}` : "";
  if (sandbox.refusesCommands) {
    return `${YOLO_APPROVES} No sandbox on this machine${reason}; tandem.sandbox.mode is "on", so Tandem refuses to run commands. ${STILL_ASKS}`;
  }
  return `${YOLO_APPROVES} No sandbox on this machine${reason}; ${GUARD_ALONE} ${STILL_ASKS}`;
}
