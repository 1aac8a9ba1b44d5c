import { VscodeCollapsible } from "../components/vscode-elements";
import type { ChatMessage, ToolMessageInfo } from "../../../src/shared/messages";
import { usePost } from "../use-extension-state";
import { NewContentPreview, SearchReplacePreview } from "./DiffPreview";
import { Row } from "./Row";
import { isEditTool, toolLabel, toolPhase } from "./tool-labels";

/** A tool use: its path (click to open) and either a diff preview or an expandable result; or, refused by the mode, the note why it did not run. */
export function ToolRow({ message }: { message: ChatMessage }) {
  const tool: ToolMessageInfo = message.tool ?? { tool: "unknown", content: message.text };
  const label = toolLabel(tool, toolPhase(message));
  // A call the mode refused is a calm note for the person (the model was told apart), not an error.
  const refused = tool.refusedIn !== undefined;
  return (
    <Row message={message} icon={refused ? "circle-slash" : label.icon} title={label.title} tone={refused ? "muted" : "plain"}>
      {tool.path !== undefined && <ToolPath tool={tool} />}
      {refused && message.text && <p className="muted-text refused-note">{message.text}</p>}
      <AskReason tool={tool} />
      <ToolContent tool={tool} />
    </Row>
  );
}

/** Why Tandem asks about this one, when it is not the usual switch (a guard file, a secret, outside the workspace). */
export function AskReason({ tool }: { tool: ToolMessageInfo | undefined }) {
  if (!tool?.why) return null;
  return (
    <p className="ask-reason">
      {tool.alwaysAsks && <span className="badge warning-badge">always asks</span>} {tool.why}
    </p>
  );
}

function ToolPath({ tool }: { tool: ToolMessageInfo }) {
  const post = usePost();
  const path = tool.path ?? "";
  return (
    <div className="tool-path">
      <button type="button" className="link-button" title={`Open ${path}`} onClick={() => post({ type: "openFile", path })}>
        {path || "."}
      </button>
      {tool.outsideWorkspace && <span className="badge warning-badge">outside workspace</span>}
    </div>
  );
}

function ToolContent({ tool }: { tool: ToolMessageInfo }) {
  if (tool.content === undefined || tool.content === "") return null;
  if (tool.tool === "replace_in_file") return <SearchReplacePreview diff={tool.content} />;
  if (isEditTool(tool.tool)) return <NewContentPreview content={tool.content} path={tool.path} />;
  return (
    <VscodeCollapsible className="tool-result" heading="Result">
      <pre className="tool-output">{tool.content}</pre>
    </VscodeCollapsible>
  );
}
