/**
 * An MCP call's rows. The approval (and the auto-approved call) names the server and the tool, the
 * tool's description on hover, and its arguments as formatted JSON under "Arguments"; for a
 * resource, the server and the URI. Once the call ran, a row of its own shows what came back
 * (`tool.mcp.result`, shaped and bounded by the host): text, images, embedded resources and
 * links, folded under "Result"; a tool that reports an error says so, without alarm.
 */
import type { ReactNode } from "react";
import type { ChatMessage, McpResultPart, McpResultView, ToolMessageInfo } from "../../../src/shared/messages";
import { VscodeCollapsible } from "../components/vscode-elements";
import { usePost } from "../use-extension-state";
import { Row } from "./Row";
import { AskReason } from "./ToolRow";
import { toolPhase, type ToolPhase } from "./tool-labels";

type McpInfo = NonNullable<ToolMessageInfo["mcp"]>;

export function McpRow({ message }: { message: ChatMessage }) {
  const tool = message.tool;
  const mcp = tool?.mcp;
  if (!tool || !mcp) return null;
  if (mcp.result) return <McpResultRow message={message} mcp={mcp} result={mcp.result} />;
  return mcp.tool !== undefined ? <McpToolCallRow message={message} tool={tool} mcp={mcp} /> : <McpResourceRow message={message} tool={tool} mcp={mcp} />;
}

/** "wants to" while it streams or waits, done once approved, otherwise what became of it. */
function verb(phase: ToolPhase, action: { proposed: string; done: string; wanted: string }): { lead: string; note: string } {
  if (phase === "proposed") return { lead: `Tandem wants to ${action.proposed}`, note: "" };
  if (phase === "done") return { lead: `Tandem ${action.done}`, note: "" };
  return { lead: `Tandem wanted to ${action.wanted}`, note: ` (${phase.notRun})` };
}

function ServerName({ mcp }: { mcp: McpInfo }) {
  return <code className="mcp-name mcp-row-server">{mcp.server}</code>;
}

function ToolName({ mcp }: { mcp: McpInfo }) {
  return (
    <code className="mcp-name mcp-row-tool" title={mcp.description}>
      {mcp.tool}
    </code>
  );
}

function McpToolCallRow({ message, tool, mcp }: { message: ChatMessage; tool: ToolMessageInfo; mcp: McpInfo }) {
  const phase = toolPhase(message);
  const { lead, note } = verb(phase, { proposed: "use", done: "used", wanted: "use" });
  const title = (
    <>
      {lead} <ToolName mcp={mcp} /> from the MCP server <ServerName mcp={mcp} />
      {note}
    </>
  );
  // A call the mode refused: a calm note for the person, the call named as the approval would.
  const refused = tool.refusedIn !== undefined;
  return (
    <Row message={message} icon={refused ? "circle-slash" : "plug"} title={title} tone={refused ? "muted" : "plain"}>
      {mcp.description && <Description text={mcp.description} />}
      {refused && message.text && <p className="muted-text refused-note">{message.text}</p>}
      <AskReason tool={tool} />
      <Arguments json={tool.content} open={phase === "proposed"} />
    </Row>
  );
}

function McpResourceRow({ message, tool, mcp }: { message: ChatMessage; tool: ToolMessageInfo; mcp: McpInfo }) {
  const { lead, note } = verb(toolPhase(message), { proposed: "read a resource of", done: "read a resource of", wanted: "read a resource of" });
  return (
    <Row message={message} icon="plug" title={<>{lead} the MCP server <ServerName mcp={mcp} />{note}</>}>
      <div className="mcp-row-uri">
        <code title={mcp.description}>{mcp.uri}</code>
      </div>
      {mcp.description && <Description text={mcp.description} />}
      <AskReason tool={tool} />
    </Row>
  );
}

/** The tool's (or resource's) description: two lines shown, the whole on hover. */
function Description({ text }: { text: string }) {
  return (
    <p className="muted-text mcp-row-description" title={text}>
      {text}
    </p>
  );
}

/** The arguments as the host formatted them (JSON, indented); none says so. */
function Arguments({ json, open }: { json: string | undefined; open: boolean }) {
  if (json === undefined || json.trim() === "" || json.trim() === "{}") return <p className="muted-text">No arguments.</p>;
  return (
    <VscodeCollapsible className="mcp-row-arguments" heading="Arguments" open={open}>
      <pre className="tool-output">{json}</pre>
    </VscodeCollapsible>
  );
}

function McpResultRow({ message, mcp, result }: { message: ChatMessage; mcp: McpInfo; result: McpResultView }) {
  const isResource = mcp.tool === undefined;
  const what = isResource ? <>the resource <code className="mcp-name">{mcp.uri}</code></> : <ToolName mcp={mcp} />;
  const title = result.isError ? (
    <>
      {what} on <ServerName mcp={mcp} /> reported an error
    </>
  ) : (
    <>
      {isResource ? "Contents of" : "Result of"} {what} from <ServerName mcp={mcp} />
    </>
  );
  return (
    <Row message={message} icon={result.isError ? "warning" : isResource ? "file-text" : "output"} title={title}>
      {result.isError && <p className="muted-text">The tool ran and says it failed; Tandem has its answer and decides what to do next.</p>}
      <VscodeCollapsible className="mcp-row-result" heading={isResource ? "Contents" : "Result"} open>
        <div className="mcp-row-result-parts">
          {result.parts.length === 0 ? <p className="muted-text">No content.</p> : result.parts.map((part, i) => <ResultPart key={i} part={part} index={i} of={mcp} />)}
        </div>
      </VscodeCollapsible>
      {result.omitted && <p className="muted-text">Not shown here, to keep the panel light: {result.omitted}.</p>}
      {result.whole && <WholeResult whole={result.whole} />}
    </Row>
  );
}

/** The model got the result cut to size; the person can open all of it. */
function WholeResult({ whole }: { whole: NonNullable<McpResultView["whole"]> }) {
  const post = usePost();
  return (
    <p className="muted-text">
      The model got this cut to size. The whole result ({whole.chars.toLocaleString("en-US")} characters) is kept with the task:{" "}
      <button type="button" className="link-button" title={`Open ${whole.path}`} onClick={() => post({ type: "openFile", path: whole.path })}>
        open it
      </button>
    </p>
  );
}

function ResultPart({ part, index, of }: { part: McpResultPart; index: number; of: McpInfo }): ReactNode {
  switch (part.type) {
    case "text":
      return <pre className="tool-output mcp-row-text">{part.text}</pre>;
    case "image": {
      const source = of.tool ?? of.uri ?? "the call";
      // The host gives only raster data URLs; anything else is not put into an <img>.
      if (!part.dataUrl.startsWith("data:image/")) return null;
      return <img className="mcp-row-image" src={part.dataUrl} alt={`Image ${index + 1} returned by ${source} (${part.mimeType})`} />;
    }
    case "resource":
      return (
        <div className="mcp-row-resource">
          <div className="mcp-row-resource-head">
            <code>{part.uri}</code>
            {part.mimeType && <span className="muted-text"> {part.mimeType}</span>}
          </div>
          <pre className="tool-output">{part.text}</pre>
        </div>
      );
    case "resource_link":
      return (
        <div className="mcp-row-link">
          <span className="mcp-row-link-name">{part.name}</span> <code>{part.uri}</code>
          {part.mimeType && <span className="muted-text"> {part.mimeType}</span>}
          {part.description && <div className="muted-text">{part.description}</div>}
        </div>
      );
  }
}
