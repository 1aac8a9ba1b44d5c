import { VscodeCheckbox, VscodeCollapsible } from "../components/vscode-elements";
import type { AgentSettings, AutoApprovalSettings } from "../../../src/shared/settings";
import { Icon } from "../components/Icon";
import { useExtensionState, usePost } from "../use-extension-state";
import { AUTO_APPROVAL_SWITCHES } from "../../../src/shared/auto-approval";
import { yoloWarning } from "./yolo-warning";

function summary(agent: AgentSettings): string {
  if (agent.yolo) return "Auto-approve: everything (YOLO)";
  const on = AUTO_APPROVAL_SWITCHES.filter((s) => agent.autoApproval[s.key]).map((s) => s.short);
  return `Auto-approve: ${on.length > 0 ? on.join(", ") : "none"}`;
}

/** YOLO does not approve these (a command outside the sandbox asks even in YOLO), so their switch stays usable. */
const NOT_COVERED_BY_YOLO: ReadonlySet<keyof AutoApprovalSettings> = new Set(["runOutsideSandbox"]);

const checkedOf = (event: Event): boolean => (event.target as HTMLInputElement).checked;

/** The auto-approval switches and YOLO, sent to the host as agent settings. */
export function AutoApproveBar() {
  const agent = useExtensionState((state) => state.settings?.agent);
  const sandbox = useExtensionState((state) => state.sandbox);
  const post = usePost();
  if (!agent) return null;
  const setSwitch = (key: keyof AutoApprovalSettings, value: boolean) =>
    post({ type: "updateAgentSettings", settings: { autoApproval: { ...agent.autoApproval, [key]: value } } });
  return (
    <div className="auto-approve">
      {agent.yolo && (
        <div className="yolo-banner" role="alert">
          <Icon name="warning" /> YOLO is on: every edit and command runs without asking.
        </div>
      )}
      <VscodeCollapsible title={summary(agent)} className="auto-approve-panel">
        <div className="auto-approve-switches">
          {AUTO_APPROVAL_SWITCHES.map(({ key, label }) => (
            <VscodeCheckbox
              key={key}
              data-setting={key}
              checked={agent.autoApproval[key]}
              disabled={agent.yolo && !NOT_COVERED_BY_YOLO.has(key)}
              onChange={(event) => setSwitch(key, checkedOf(event))}
            >
              {label}
            </VscodeCheckbox>
          ))}
        </div>
        <VscodeCheckbox
          data-setting="yolo"
          checked={agent.yolo}
          onChange={(event) => post({ type: "updateAgentSettings", settings: { yolo: checkedOf(event) } })}
        >
          YOLO: approve everything
        </VscodeCheckbox>
        <p className="yolo-warning">{yoloWarning(sandbox, agent.autoApproval.runOutsideSandbox)}</p>
      </VscodeCollapsible>
    </div>
  );
}
