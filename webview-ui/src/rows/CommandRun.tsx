/**
 * A command's run in words for the person: the confinement it runs under (on the command row and
 * its output), how it ended, and what the sandbox blocked with the setting that would allow it.
 * The core sets every fact (src/shared/command-run.ts); nothing here reads the command's output.
 */
import { commandEndText, confinementShort, type CommandConfinement, type CommandRunInfo, type SandboxBlock } from "../../../src/shared/command-run";
import { Icon } from "../components/Icon";
import { usePanel } from "../state/panel-context";

const FULL_ACCESS = "full access to your files and the network";

export function confinementText(confinement: CommandConfinement): string {
  switch (confinement.kind) {
    case "sandboxed": {
      const writable = ["the workspace", "a temp folder", ...confinement.writableFolders];
      return `In the sandbox (${confinement.technology}): writes only in ${listed(writable)}; ${networkText(confinement)}`;
    }
    case "outside":
      return `Outside the sandbox, as the model asked: ${FULL_ACCESS}`;
    case "none":
      if (confinement.why === "off") return `Not sandboxed (tandem.sandbox.mode is "off"): ${FULL_ACCESS}`;
      return `Not sandboxed (no sandbox on this machine): ${FULL_ACCESS}`;
  }
}

function networkText(confinement: Extract<CommandConfinement, { kind: "sandboxed" }>): string {
  if (confinement.network === "none") return "no network";
  if (confinement.network === "all") return "network to any host but this machine's own";
  return `network only to the allow list (${confinement.allowedDomains} domains)`;
}

/** The confinement line; a sandbox the machine lacks says why on hover. */
export function Confinement({ confinement }: { confinement: CommandConfinement | undefined }) {
  if (!confinement) return null;
  const icon = confinement.kind === "sandboxed" ? "shield" : "warning";
  const reason = confinement.kind === "none" ? confinement.reason : undefined;
  return (
    <p className={`command-confinement confinement-${confinement.kind}`} title={reason}>
      <Icon name={icon} /> {confinementText(confinement)}
    </p>
  );
}

/**
 * How the run ended (or, while its output streams, that it runs), with the confinement it ran
 * under; then what the sandbox blocked. A finished row of a run still going on says nothing here.
 */
export function CommandEnding({ run, partial }: { run: CommandRunInfo; partial: boolean }) {
  const end = run.end;
  const failed = end !== undefined && !(end.kind === "exited" && end.code === 0) && end.kind !== "background";
  const icon = end === undefined || end.kind === "background" ? "loading" : failed ? "error" : "pass";
  return (
    <>
      {(end !== undefined || partial) && (
        <p className={`command-end${failed ? " command-failed" : ""}`}>
          <Icon name={icon} spin={icon === "loading"} /> {commandEndText(end)} · {confinementShort(run.confinement)}
        </p>
      )}
      {run.blocked && run.blocked.length > 0 && <SandboxBlocks blocks={run.blocked} />}
    </>
  );
}

function SandboxBlocks({ blocks }: { blocks: readonly SandboxBlock[] }) {
  const { store } = usePanel();
  return (
    <div className="sandbox-block" role="note" aria-label="What the sandbox blocked">
      <p className="sandbox-block-title">
        <Icon name="shield" /> The sandbox blocked this command:
      </p>
      <ul>
        {blocks.map((block, index) => (
          <li key={index}>
            {blockText(block)}
            {block.evidence && <code className="sandbox-evidence">{block.evidence}</code>}
          </li>
        ))}
      </ul>
      <button type="button" className="link-button" onClick={() => store.setView("settings")}>
        Open the sandbox settings
      </button>
    </div>
  );
}

/** What was refused, why, and what would allow it. */
export function blockText(block: SandboxBlock): string {
  const target = block.target;
  switch (block.kind) {
    case "write":
      return (
        `Writing ${target ?? "a file"}: it is outside the folders sandboxed commands may write (the workspace, the task's temp folder and tandem.sandbox.writableFolders). ` +
        `To allow it, add ${target ? folderOf(target) : "its folder"} to the setting tandem.sandbox.writableFolders.`
      );
    case "protected":
      return `Writing ${target ?? "a protected file"}: inside the sandbox Tandem keeps .git/hooks, .git/config, the ignore files, .vscode/ and .tandem/ read-only. ${ONLY_OUTSIDE}`;
    case "read":
      return `Reading ${target ?? "a hidden file"}: the sandbox hides credential stores, Tandem's own storage and the workspace's ignored and secret files. ${ONLY_OUTSIDE}`;
    case "network":
      return networkBlockText(block);
    case "other":
      return `Something the sandbox refuses. ${ONLY_OUTSIDE}`;
  }
}

const ONLY_OUTSIDE = "No setting allows it: only a run outside the sandbox, which the model must ask you for.";

function networkBlockText(block: SandboxBlock): string {
  const what = block.target ? `Connecting to ${block.target}` : "A network connection";
  if (block.setting === "tandem.sandbox.network") return `${what}: tandem.sandbox.network is "none", so sandboxed commands reach no network. To allow it, set tandem.sandbox.network to "allowList" or "all".`;
  if (block.setting === "tandem.sandbox.allowedDomains") {
    return `${what}: the host is not on the sandbox's network allow list. To allow it, add ${block.target ?? "the host"} to the setting tandem.sandbox.allowedDomains (or set tandem.sandbox.network to "all").`;
  }
  return `${what}: the sandbox keeps this machine's own services out of reach. ${ONLY_OUTSIDE}`;
}

/** The folder to list for a refused file: its parent (a path the person can paste into the setting). */
function folderOf(file: string): string {
  const cut = file.replace(/\/+$/, "").lastIndexOf("/");
  return cut <= 0 ? "/" : file.slice(0, cut);
}

function listed(items: readonly string[]): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}
