/**
 * Changes the hub writes back into a configuration file: a tool's "always allow", a server's
 * disabled flag or timeout, a deleted server. Each reads the file, changes only that entry and
 * writes the whole file atomically, so everything else the person wrote stays as it was (the
 * indentation becomes two spaces: JSON keeps no layout worth more than a crash-safe write).
 */
import { mkdir, readFile } from "node:fs/promises";
import * as path from "node:path";
import { writeFileAtomic } from "../storage/atomic-write";
import { JsonSyntaxError, parseLocatedJson } from "./json-locate";
import { isObject } from "./mcp-config";

export type McpServerEdit =
  | { readonly kind: "autoApprove"; readonly tool: string; readonly allow: boolean }
  | { readonly kind: "disabled"; readonly disabled: boolean }
  | { readonly kind: "timeout"; readonly seconds: number }
  | { readonly kind: "delete" };

export async function editServerInFile(file: string, server: string, edit: McpServerEdit): Promise<void> {
  const root = await readRoot(file);
  const servers = isObject(root.mcpServers) ? root.mcpServers : (root.mcpServers = {});
  const entry = servers[server];
  if (!isObject(entry)) throw new Error(`${path.basename(file)} has no server "${server}"`);
  switch (edit.kind) {
    case "autoApprove": {
      const list = Array.isArray(entry.autoApprove) ? entry.autoApprove.filter((t) => t !== edit.tool) : [];
      entry.autoApprove = edit.allow ? [...list, edit.tool] : list;
      break;
    }
    case "disabled":
      if (edit.disabled) entry.disabled = true;
      else delete entry.disabled;
      break;
    case "timeout":
      entry.timeout = edit.seconds;
      break;
    case "delete":
      delete servers[server];
      break;
  }
  await mkdir(path.dirname(file), { recursive: true });
  await writeFileAtomic(file, JSON.stringify(root, null, 2) + "\n");
}

async function readRoot(file: string): Promise<Record<string, unknown>> {
  let text = "";
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  if (text.trim() === "") return {};
  try {
    const value = parseLocatedJson(text).value;
    if (isObject(value)) return value;
  } catch (error) {
    if (!(error instanceof JsonSyntaxError)) throw error;
    // Never overwrite a file the person is in the middle of editing.
    throw new Error(`${path.basename(file)} line ${error.position.line}: invalid JSON (${error.message}); fix it before Tandem changes it`);
  }
  throw new Error(`${path.basename(file)} does not hold an object; fix it before Tandem changes it`);
}
