import type { ReactNode } from "react";
import { VscodeOption, VscodeSingleSelect } from "../components/vscode-elements";
import type { SandboxStatus } from "../../../src/shared/sandbox-status";
import type { SandboxMode, SandboxNetwork, SandboxSettings } from "../../../src/shared/settings";
import { Field } from "./Field";
import { checkDomains, joinList, NETWORK_LABELS, sandboxHeadline, splitList } from "./sandbox-state";
import { TextSetting } from "./TextSetting";

interface SandboxSectionProps {
  /** What the person chose (tandem.sandbox.*). */
  settings: SandboxSettings;
  /** What the host found and does; undefined until it says. */
  status: SandboxStatus | undefined;
  onChange: (sandbox: SandboxSettings) => void;
}

/** The OS sandbox commands run in: its state as the host reports it, and the settings behind it. */
export function SandboxSection({ settings, status, onChange }: SandboxSectionProps) {
  const change = (changes: Partial<SandboxSettings>) => onChange({ ...settings, ...changes });
  return (
    <section className="settings-section" aria-labelledby="sandbox-heading">
      <h3 id="sandbox-heading">Command sandbox</h3>
      <SandboxState status={status} />
      <Field label="Sandbox" help="Automatic: on where the machine has a sandbox. On: refuse to run commands where it has none. Off: no sandbox.">
        <VscodeSingleSelect aria-label="Sandbox" label="Sandbox" value={settings.mode} onChange={(event) => change({ mode: selected<SandboxMode>(event) })}>
          <VscodeOption value="auto">Automatic</VscodeOption>
          <VscodeOption value="on">On (refuse commands without it)</VscodeOption>
          <VscodeOption value="off">Off</VscodeOption>
        </VscodeSingleSelect>
      </Field>
      <Field label="Network" help="The allow list: npm, PyPI, crates.io, the Go module proxy, Maven Central and RubyGems, plus the domains below.">
        <VscodeSingleSelect aria-label="Network" label="Network" value={settings.network} onChange={(event) => change({ network: selected<SandboxNetwork>(event) })}>
          {(Object.keys(NETWORK_LABELS) as SandboxNetwork[]).map((network) => (
            <VscodeOption key={network} value={network}>
              {NETWORK_LABELS[network]}
            </VscodeOption>
          ))}
        </VscodeSingleSelect>
      </Field>
      <TextSetting
        label="Extra allowed domains"
        value={joinList(settings.allowedDomains)}
        placeholder="e.g. api.github.com, *.example.com"
        help="Added to the allow list; web_fetch treats them as any site, even on this machine (e.g. 127.0.0.1:3000). Separate them with commas."
        validate={checkDomains}
        onCommit={(text) => change({ allowedDomains: splitList(text) })}
      />
      <TextSetting
        label="Extra writable folders"
        value={joinList(settings.writableFolders)}
        placeholder="e.g. ~/.npm, ~/.cache"
        help="Folders commands may write besides the workspace and the task's temp folder; separate them with commas."
        onCommit={(text) => change({ writableFolders: splitList(text) })}
      />
    </section>
  );
}

const selected = <T extends string>(event: Event): T => (event.target as HTMLSelectElement).value as T;

function SandboxState({ status }: { status: SandboxStatus | undefined }) {
  if (!status) return <p className="muted-text">Waiting for the sandbox check…</p>;
  return (
    <div className="sandbox-state" role="status" aria-label="Sandbox state">
      <p className="sandbox-headline">{sandboxHeadline(status)}</p>
      {status.reason && <p className="sandbox-reason">{status.reason}</p>}
      <dl className="sandbox-facts">
        <Fact term="Network">{NETWORK_LABELS[status.network]}</Fact>
        <Fact term="Writable">{["the workspace", "the task's temp folder", ...status.writableFolders].join(", ")}</Fact>
      </dl>
      {status.network === "allowList" && <FactList summary="Allowed domains" items={status.allowedDomains} />}
      <FactList summary="Denied reads" items={status.deniedReads} />
    </div>
  );
}

function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <>
      <dt>{term}</dt>
      <dd>{children}</dd>
    </>
  );
}

/** A long list (the registries, HOME's credential stores) folded under its count. */
function FactList({ summary, items }: { summary: string; items: readonly string[] }) {
  return (
    <details className="sandbox-list">
      <summary>
        {summary} ({items.length})
      </summary>
      <ul aria-label={summary}>
        {items.map((item) => (
          <li key={item}>{item}</li>
        ))}
      </ul>
    </details>
  );
}
