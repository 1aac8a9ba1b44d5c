/**
 * Reading an MCP configuration file in Cline's format, `{"mcpServers": {NAME: {…}}}`, so people
 * can bring their servers. Every problem names the file, the line and column, the server and
 * the field, because "my server does not appear" is the question Cline's users ask most. A file
 * with any problem is rejected whole: the hub then keeps what it was running.
 */
import { readFile } from "node:fs/promises";
import * as path from "node:path";
import { JsonSyntaxError, parseLocatedJson, pathKey, type JsonPosition, type LocatedJson } from "./json-locate";
import { DEFAULT_TOOL_TIMEOUT_SECONDS, type McpConfigProblem, type McpServerConfig, type McpTransportType } from "./types";

export type McpConfigResult =
  | { readonly ok: true; readonly servers: ReadonlyMap<string, McpServerConfig>; readonly warnings: readonly McpConfigProblem[] }
  | { readonly ok: false; readonly problems: readonly McpConfigProblem[] };

const TYPES: Readonly<Record<string, McpTransportType>> = { stdio: "stdio", sse: "sse", streamableHttp: "streamableHttp", http: "streamableHttp" };
const KNOWN_FIELDS = new Set(["command", "args", "env", "cwd", "type", "url", "headers", "disabled", "autoApprove", "timeout", "sandbox"]);
const MAX_TIMEOUT_SECONDS = 3600;

/** Reads and checks a file; a file that does not exist configures no servers. */
export async function loadMcpConfigFile(file: string): Promise<McpConfigResult> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { ok: true, servers: new Map(), warnings: [] };
    const message = `${path.basename(file)}: cannot be read (${(error as Error).message})`;
    return { ok: false, problems: [{ file, line: 1, column: 1, message }] };
  }
  return parseMcpConfig(text, file);
}

export function parseMcpConfig(text: string, file: string): McpConfigResult {
  if (text.trim() === "") return { ok: true, servers: new Map(), warnings: [] };
  let located: LocatedJson;
  try {
    located = parseLocatedJson(text);
  } catch (error) {
    if (!(error instanceof JsonSyntaxError)) throw error;
    return { ok: false, problems: [problem(file, error.position, `invalid JSON: ${error.message}`)] };
  }
  return new ConfigChecker(file, located).check();
}

class ConfigChecker {
  private readonly problems: McpConfigProblem[] = [];
  private readonly warnings: McpConfigProblem[] = [];

  constructor(
    private readonly file: string,
    private readonly json: LocatedJson,
  ) {}

  check(): McpConfigResult {
    const servers = new Map<string, McpServerConfig>();
    const root = this.json.value;
    if (!isObject(root)) {
      this.report([], 'the file must hold an object: {"mcpServers": {…}}');
    } else if (root.mcpServers !== undefined) {
      if (!isObject(root.mcpServers)) this.report(["mcpServers"], '"mcpServers" must be an object of servers by name');
      else this.checkServers(root.mcpServers, servers);
    }
    if (this.problems.length > 0) return { ok: false, problems: this.problems };
    return { ok: true, servers, warnings: this.warnings };
  }

  private checkServers(entries: Record<string, unknown>, servers: Map<string, McpServerConfig>): void {
    for (const [name, entry] of Object.entries(entries)) {
      if (name.trim() === "") {
        this.report(["mcpServers", name], "a server needs a non-empty name");
        continue;
      }
      if (!isObject(entry)) {
        this.report(["mcpServers", name], `server "${name}" must be an object`);
        continue;
      }
      const server = this.checkServer(name, entry);
      if (server) servers.set(name, server);
    }
  }

  private checkServer(name: string, e: Record<string, unknown>): McpServerConfig | undefined {
    const before = this.problems.length;
    const at = (field: string) => ["mcpServers", name, field];
    const bad = (field: string, what: string) => this.report(at(field), `server "${name}": "${field}" ${what}`);
    for (const field of Object.keys(e)) {
      if (!KNOWN_FIELDS.has(field)) this.report(at(field), `server "${name}": unknown field "${field}" is ignored`, this.warnings);
    }
    const { resolvedType, type, command, url } = this.checkTransport(name, e, bad);
    const args = this.stringList(e, "args", bad);
    const autoApprove = this.stringList(e, "autoApprove", bad);
    const env = this.stringMap(e, "env", bad);
    const headers = this.stringMap(e, "headers", bad);
    const cwd = this.optionalString(e, "cwd", bad);
    const disabled = this.optionalBoolean(e, "disabled", bad);
    const sandbox = this.optionalBoolean(e, "sandbox", bad);
    let timeoutSeconds = DEFAULT_TOOL_TIMEOUT_SECONDS;
    if (e.timeout !== undefined) {
      if (typeof e.timeout !== "number" || !(e.timeout > 0) || e.timeout > MAX_TIMEOUT_SECONDS) {
        bad("timeout", `must be a number of seconds (1 to ${MAX_TIMEOUT_SECONDS})`);
      } else timeoutSeconds = e.timeout;
    }
    if (this.problems.length > before || resolvedType === undefined) return undefined;
    return {
      type: resolvedType,
      typeInferred: type === undefined && resolvedType !== "stdio",
      command,
      args,
      env,
      cwd,
      url,
      headers,
      disabled,
      autoApprove,
      timeoutSeconds,
      sandbox,
    };
  }

  /** Which transport the entry asks for, and that it has the fields that transport needs (and no others). */
  private checkTransport(name: string, e: Record<string, unknown>, bad: (f: string, what: string) => void) {
    let type: McpTransportType | undefined;
    if (e.type !== undefined) {
      type = typeof e.type === "string" ? TYPES[e.type] : undefined;
      if (!type) bad("type", 'must be "stdio", "sse" or "streamableHttp"');
    }
    const command = this.optionalString(e, "command", bad);
    const url = this.optionalString(e, "url", bad);
    const resolvedType = type ?? (command !== undefined ? "stdio" : url !== undefined ? "streamableHttp" : undefined);
    if (resolvedType === "stdio") {
      if (command === undefined || command.trim() === "") this.report(["mcpServers", name], `server "${name}": a stdio server needs "command"`);
      for (const field of ["url", "headers"]) if (e[field] !== undefined) bad(field, 'is not used by a stdio server (it needs "command")');
    } else if (resolvedType !== undefined) {
      if (url === undefined) this.report(["mcpServers", name], `server "${name}": a ${resolvedType} server needs "url"`);
      else if (!/^https?:\/\//i.test(url) || !URL.canParse(url)) bad("url", "must be an http:// or https:// URL");
      for (const field of ["command", "args", "env", "cwd"]) if (e[field] !== undefined) bad(field, `is not used by a ${resolvedType} server (it needs "url")`);
    } else if (type === undefined) {
      this.report(["mcpServers", name], `server "${name}": needs "command" (a local server) or "url" (a remote one)`);
    }
    return { resolvedType, type, command, url };
  }

  private optionalString(e: Record<string, unknown>, field: string, bad: (f: string, what: string) => void): string | undefined {
    if (e[field] === undefined) return undefined;
    if (typeof e[field] !== "string") bad(field, "must be a string");
    return typeof e[field] === "string" ? e[field] : undefined;
  }

  private optionalBoolean(e: Record<string, unknown>, field: string, bad: (f: string, what: string) => void): boolean {
    if (e[field] === undefined) return false;
    if (typeof e[field] !== "boolean") bad(field, "must be true or false");
    return e[field] === true;
  }

  private stringList(e: Record<string, unknown>, field: string, bad: (f: string, what: string) => void): string[] {
    const value = e[field];
    if (value === undefined) return [];
    if (!Array.isArray(value) || !value.every((item) => typeof item === "string")) {
      bad(field, "must be a list of strings");
      return [];
    }
    return value as string[];
  }

  private stringMap(e: Record<string, unknown>, field: string, bad: (f: string, what: string) => void): Record<string, string> {
    const value = e[field];
    if (value === undefined) return {};
    if (!isObject(value) || !Object.values(value).every((item) => typeof item === "string")) {
      bad(field, 'must be an object of strings, e.g. {"NAME": "value"}');
      return {};
    }
    return value as Record<string, string>;
  }

  private report(at: (string | number)[], text: string, into = this.problems): void {
    const position = this.json.positions.get(pathKey(at)) ?? { line: 1, column: 1 };
    into.push(problem(this.file, position, text));
  }
}

function problem(file: string, position: JsonPosition, text: string): McpConfigProblem {
  const message = `${path.basename(file)} line ${position.line} column ${position.column}: ${text}`;
  return { file, line: position.line, column: position.column, message };
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** What decides how a server is started: a change here restarts it, a change elsewhere does not. */
export function launchKey(config: McpServerConfig): string {
  const { type, command, args, env, cwd, url, headers, sandbox, typeInferred } = config;
  return JSON.stringify({ type, typeInferred, command, args, env, cwd, url, headers, sandbox });
}
