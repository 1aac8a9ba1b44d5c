import { fireEvent, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { McpServerView } from "../../../src/shared/mcp";
import { makeState } from "../test-support/fixtures";
import { renderPanel } from "../test-support/render-panel";

const connected: McpServerView = {
  name: "everything",
  source: "global",
  state: "connected",
  timeoutSeconds: 60,
  tools: [
    { name: "echo", description: "Echoes back the input", autoApprove: false },
    { name: "add", autoApprove: true },
  ],
  resources: [{ uri: "demo://resource/1", name: "Resource 1" }],
  templates: [{ uriTemplate: "demo://resource/{id}", name: "Any resource" }],
};
const failed: McpServerView = { name: "db", source: "global", state: "failed", error: "server exited with code 1", stderrTail: "Error: cannot find module 'pg'", timeoutSeconds: 60, tools: [], resources: [], templates: [] };
const untrusted: McpServerView = { name: "repo-tool", source: "workspace", state: "untrusted", timeoutSeconds: 60, tools: [], resources: [], templates: [] };

function openView(servers: McpServerView[], problems: { file: string; line: number; message: string }[] = []) {
  const panel = renderPanel(makeState({ mcp: { available: true, servers, problems, elicitations: [] } }));
  panel.send({ type: "showView", view: "mcp" });
  return panel;
}
const item = (name: string) => screen.getByRole("listitem", { name });

describe("the MCP view", () => {
  it("lists each server with its state, tools and resources", () => {
    openView([connected, failed]);
    expect(screen.getByRole("heading", { name: "MCP Servers" })).toBeInTheDocument();
    const server = within(item("everything"));
    expect(server.getByText("Connected")).toBeInTheDocument();
    expect(server.getByText("Echoes back the input")).toBeInTheDocument();
    expect(server.getByRole("checkbox", { name: "Auto-approve echo" })).not.toBeChecked();
    expect(server.getByRole("checkbox", { name: "Auto-approve add" })).toBeChecked();
    expect(server.getByText("Resources (2)")).toBeInTheDocument();
    expect(server.getByText("demo://resource/{id}")).toBeInTheDocument();
  });

  it("shows why a server failed, its stderr folded", () => {
    openView([failed]);
    const server = within(item("db"));
    expect(server.getByText("Failed")).toBeInTheDocument();
    expect(server.getByText("server exited with code 1")).toBeVisible();
    const details = server.getByText("Server output (stderr)").closest("details")!;
    expect(details.open).toBe(false);
    expect(within(details).getByText("Error: cannot find module 'pg'")).toBeInTheDocument();
  });

  it("posts the actions on a server; delete only after a second click", async () => {
    const panel = openView([connected]);
    const server = within(item("everything"));
    await userEvent.click(server.getByRole("checkbox", { name: "Auto-approve echo" }));
    await userEvent.click(await server.findByRole("button", { name: "Disable" }));
    await userEvent.click(server.getByRole("button", { name: "Restart" }));
    await userEvent.click(server.getByRole("button", { name: "Delete" }));
    expect(panel.posted()).toEqual([
      { type: "mcpAction", action: { action: "setToolAutoApprove", server: "everything", tool: "echo", allow: true } },
      { type: "mcpAction", action: { action: "setDisabled", server: "everything", disabled: true } },
      { type: "mcpAction", action: { action: "restart", server: "everything" } },
    ]);
    await userEvent.click(server.getByRole("button", { name: "Confirm delete" }));
    expect(panel.posted().at(-1)).toEqual({ type: "mcpAction", action: { action: "delete", server: "everything" } });
  });

  it("saves a valid timeout on Enter and puts an invalid one back", async () => {
    const panel = openView([connected]);
    const field = within(item("everything")).getByRole("spinbutton", { name: "Timeout in seconds" });
    await userEvent.clear(field);
    await userEvent.type(field, "0{Enter}");
    expect(panel.posted()).toEqual([]);
    expect(field).toHaveValue(60);
    await userEvent.clear(field);
    await userEvent.type(field, "120{Enter}");
    expect(panel.posted()).toEqual([{ type: "mcpAction", action: { action: "setTimeout", server: "everything", seconds: 120 } }]);
  });

  it("offers Trust for the workspace's servers, and the file actions", async () => {
    const panel = openView([untrusted], [{ file: "/ws/.tandem/mcp.json", line: 3, message: 'mcp.json line 3: server "x": "command" must be text' }]);
    expect(screen.getByText('mcp.json line 3: server "x": "command" must be text')).toBeInTheDocument();
    const server = within(item("repo-tool"));
    expect(server.getByText("Not trusted")).toBeInTheDocument();
    expect((server.getByText("Restart").closest("vscode-button") as HTMLElement & { disabled: boolean }).disabled).toBe(true);
    // The elements take their role once rendered: wait for the first.
    await userEvent.click(await server.findByRole("button", { name: "Trust" }));
    await userEvent.click(screen.getByRole("button", { name: "Edit configuration" }));
    await userEvent.click(screen.getByRole("button", { name: "Open workspace file" }));
    await userEvent.click(screen.getByRole("button", { name: "Import from Cline" }));
    expect(panel.posted().map((m) => m.type === "mcpAction" && m.action.action)).toEqual(["trustWorkspace", "editConfig", "openWorkspaceConfig", "importFromCline"]);
  });

  it("applies the host's deltas: one server replaced in place, one added, one removed", () => {
    const panel = openView([connected, failed]);
    panel.send({ type: "mcpServersChanged", changed: [{ ...failed, state: "connecting", error: undefined, stderrTail: undefined }, untrusted], removed: ["everything"] });
    expect(screen.getAllByRole("listitem").filter((li) => li.classList.contains("mcp-server")).map((li) => li.getAttribute("aria-label"))).toEqual(["db", "repo-tool"]);
    expect(within(item("db")).getByText("Connecting")).toBeInTheDocument();
    expect(within(item("db")).queryByText("server exited with code 1")).toBeNull();
  });

  it("says when no server is configured", () => {
    openView([]);
    expect(screen.getByText(/No MCP server is configured/)).toBeInTheDocument();
  });
});

describe("a server's request for input", () => {
  const elicitation = {
    id: 7,
    server: "everything",
    message: "Please provide inputs",
    fields: [
      { name: "name", title: "Name", required: true, kind: "string" as const },
      { name: "agree", title: "Agree", required: false, kind: "boolean" as const },
      { name: "count", title: "Count", required: false, kind: "number" as const, integer: true, default: 42 },
      { name: "hero", title: "Hero", required: false, kind: "enum" as const, options: [{ value: "h1", label: "Superman" }, { value: "h2", label: "Wonder Woman" }] },
      { name: "tags", title: "Tags", required: false, kind: "unsupported" as const, why: "Tandem's form cannot ask for a array" },
    ],
  };

  it("is a form over the chat; Accept posts the values, Decline posts none", async () => {
    const panel = renderPanel(makeState());
    panel.send({ type: "mcpElicitationOpened", elicitation });
    const form = within(screen.getByRole("form", { name: "everything asks for input" }));
    expect(form.getByText("Please provide inputs")).toBeInTheDocument();
    await userEvent.type(form.getByLabelText("Name *"), "Ada");
    await userEvent.click(form.getByLabelText("Agree"));
    fireEvent.change(form.getByLabelText("Hero"), { target: { value: "h2" } });
    expect(form.getByText(/left out/)).toBeInTheDocument();
    await userEvent.click(await form.findByRole("button", { name: "Accept" }));
    expect(panel.posted()).toEqual([{ type: "mcpElicitationAnswer", answer: { id: 7, action: "accept", content: { name: "Ada", agree: true, count: 42, hero: "h2" } } }]);
    await userEvent.click(form.getByRole("button", { name: "Decline" }));
    expect(panel.posted().at(-1)).toEqual({ type: "mcpElicitationAnswer", answer: { id: 7, action: "decline" } });
    panel.send({ type: "mcpElicitationClosed", id: 7 });
    expect(screen.queryByRole("form")).toBeNull();
  });
});
