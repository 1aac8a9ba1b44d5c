/**
 * What the panel's MCP view sees of the servers and what it may ask of them. Plain, serialisable
 * data: no SDK types cross to the webview. The host's hub owns every fact here; the panel only
 * shows it and posts actions, whose failures come back as notices.
 */

export type McpServerStatus = "connecting" | "connected" | "disabled" | "failed" | "untrusted";

export interface McpToolView {
  readonly name: string;
  readonly description?: string;
  /** Runs without asking (listed in the server's `autoApprove`). */
  readonly autoApprove: boolean;
}

export interface McpResourceView {
  readonly uri: string;
  readonly name: string;
  readonly description?: string;
}

export interface McpTemplateView {
  readonly uriTemplate: string;
  readonly name: string;
  readonly description?: string;
}

export interface McpServerView {
  readonly name: string;
  readonly source: "global" | "workspace";
  readonly state: McpServerStatus;
  readonly error?: string;
  /** The last lines of a stdio server's stderr, to explain a failure. */
  readonly stderrTail?: string;
  /** Seconds a tool call may take. */
  readonly timeoutSeconds: number;
  readonly tools: readonly McpToolView[];
  readonly resources: readonly McpResourceView[];
  readonly templates: readonly McpTemplateView[];
}

/** A problem in a configuration file, for the person to fix: the message names the file and line. */
export interface McpProblemView {
  readonly file: string;
  readonly line: number;
  readonly message: string;
}

/** The whole MCP view, sent in `state` only; after that, `mcpServersChanged` deltas. */
export interface McpPanelState {
  /** False when this host runs without MCP (the view then says so). */
  readonly available: boolean;
  readonly servers: readonly McpServerView[];
  readonly problems: readonly McpProblemView[];
  /** Open requests of servers for the person's input, oldest first. */
  readonly elicitations: readonly McpElicitation[];
}

/** What the panel asks of the servers and their files. `delete` is posted only after the panel confirmed it. */
export type McpAction =
  | { readonly action: "setDisabled"; readonly server: string; readonly disabled: boolean }
  | { readonly action: "restart"; readonly server: string }
  | { readonly action: "delete"; readonly server: string }
  | { readonly action: "setTimeout"; readonly server: string; readonly seconds: number }
  | { readonly action: "setToolAutoApprove"; readonly server: string; readonly tool: string; readonly allow: boolean }
  /** Opens the global file, creating it with `{"mcpServers": {}}` when missing. */
  | { readonly action: "editConfig" }
  | { readonly action: "openWorkspaceConfig" }
  /** Asks the person (in the editor) to trust the workspace's servers, then starts what they allow. */
  | { readonly action: "trustWorkspace" }
  /** Merges Cline's servers into the global file, keeping same-named ones of Tandem's. */
  | { readonly action: "importFromCline" };

/**
 * One flat field of an elicitation form. Servers may only ask for flat objects of primitives
 * (the spec's restricted schema); anything else is `unsupported` and shown as such.
 */
export type McpElicitationField = {
  readonly name: string;
  readonly title: string;
  readonly description?: string;
  readonly required: boolean;
} & (
  | { readonly kind: "string"; readonly default?: string; readonly format?: string; readonly minLength?: number; readonly maxLength?: number }
  | { readonly kind: "number"; readonly integer: boolean; readonly default?: number; readonly minimum?: number; readonly maximum?: number }
  | { readonly kind: "boolean"; readonly default?: boolean }
  | { readonly kind: "enum"; readonly options: readonly { readonly value: string; readonly label: string }[]; readonly default?: string }
  | { readonly kind: "unsupported"; readonly why: string }
);

/** A server's request for the person's input, as a form. */
export interface McpElicitation {
  readonly id: number;
  readonly server: string;
  readonly message: string;
  readonly fields: readonly McpElicitationField[];
}

export type McpElicitationValue = string | number | boolean;

export interface McpElicitationAnswer {
  readonly id: number;
  readonly action: "accept" | "decline" | "cancel";
  /** With `accept`: the values by field name. */
  readonly content?: Readonly<Record<string, McpElicitationValue>>;
}
