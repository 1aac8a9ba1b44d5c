import type { AgentMode } from "../../../src/shared/settings";
import { useExtensionState, usePost } from "../use-extension-state";

const MODES: readonly { mode: AgentMode; label: string; hint: string }[] = [
  { mode: "plan", label: "Plan", hint: "Plan mode: Tandem explores and discusses a plan, and changes nothing" },
  { mode: "act", label: "Act", hint: "Act mode: Tandem carries the task out" },
];

/**
 * The Plan/Act switch, before a task and during one. It shows the host's mode only (the task's,
 * or the next task's): a click asks the host, whose `modeChanged` moves the switch.
 */
export function ModeSwitch() {
  const mode = useExtensionState((state) => state.mode);
  const post = usePost();
  return (
    <div className="mode-switch" role="group" aria-label="Mode">
      {MODES.map((m) => (
        <button
          key={m.mode}
          type="button"
          className={`mode-option${m.mode === mode ? " active" : ""}`}
          aria-pressed={m.mode === mode}
          title={m.hint}
          onClick={() => m.mode !== mode && post({ type: "setMode", mode: m.mode })}
        >
          {m.label}
        </button>
      ))}
    </div>
  );
}
