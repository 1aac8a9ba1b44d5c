import { useEffect } from "react";
import type { AgentMode } from "../../../src/shared/settings";
import { useExtensionState, usePost } from "../use-extension-state";
import { listenForModeKey, otherMode } from "./mode-key";

const MODES: readonly { mode: AgentMode; label: string; hint: string }[] = [
  { mode: "plan", label: "Plan", hint: "Plan mode: Tandem explores and discusses a plan, and changes nothing" },
  { mode: "act", label: "Act", hint: "Act mode: Tandem carries the task out" },
];

/**
 * The Plan/Act switch, before a task and during one. It shows the host's mode only (the task's,
 * or the next task's): a click asks the host, whose `modeChanged` moves the switch. Ctrl+Shift+A
 * (Cmd+Shift+A) in the panel asks for the other mode (mode-key.ts).
 */
export function ModeSwitch() {
  const mode = useExtensionState((state) => state.mode);
  const post = usePost();
  useEffect(() => listenForModeKey(document, () => post({ type: "setMode", mode: otherMode(mode) })), [mode, post]);
  return (
    <div className="mode-switch" role="group" aria-label="Mode" aria-keyshortcuts="Control+Shift+A">
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
