import { useId, type ReactNode } from "react";
import { commandEndText } from "../../../src/shared/command-run";
import type { ChatMessage } from "../../../src/shared/messages";
import { ledgerSandboxText, OTHER_CHANGES_TITLE } from "../../../src/shared/task-ledger";
import { Row } from "./Row";

/**
 * What the completed task touched (the core's ledger): files written, commands run with how each
 * ended and was confined, hosts and MCP servers reached. Each part is a headed list, and every fact
 * is words (a failed command says its exit code), so it reads the same to a screen reader.
 */
export function TaskLedgerRow({ message }: { message: ChatMessage }) {
  const ledger = message.ledger;
  if (!ledger) return <Row message={message} icon="history" title="What the task touched" tone="muted">{message.text}</Row>;
  return (
    <Row message={message} icon="history" title="What the task touched" tone="muted">
      <section aria-label="What the task touched" className="task-ledger">
        <LedgerSection title="Files written" items={ledger.files.map((file) => <code key={file}>{file}</code>)} />
        {ledger.otherChanges?.length ? <LedgerSection title={OTHER_CHANGES_TITLE} items={ledger.otherChanges.map((file) => <code key={file}>{file}</code>)} /> : null}
        <LedgerSection
          title="Commands run"
          items={ledger.commands.map((run, i) => (
            <span key={i}>
              <code>{run.command}</code> · {run.end ? commandEndText(run.end) : "Did not start"} · {ledgerSandboxText(run.sandbox)}
            </span>
          ))}
        />
        <LedgerSection title="Hosts contacted" items={ledger.hosts.map((host) => <code key={host}>{host}</code>)} />
        <LedgerSection title="MCP servers used" items={ledger.mcpServers.map((server) => <code key={server}>{server}</code>)} />
      </section>
    </Row>
  );
}

function LedgerSection({ title, items }: { title: string; items: ReactNode[] }) {
  const id = useId();
  return (
    <>
      <h4 id={id} className="task-ledger-heading">
        {title} ({items.length})
      </h4>
      {items.length === 0 ? (
        <p className="muted-text">None</p>
      ) : (
        <ul aria-labelledby={id}>
          {items.map((item, i) => (
            <li key={i}>{item}</li>
          ))}
        </ul>
      )}
    </>
  );
}
