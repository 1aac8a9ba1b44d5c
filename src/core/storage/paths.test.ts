import { mkdtemp, readdir, rm } from "node:fs/promises";
import { homedir, tmpdir } from "node:os";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { TaskHistory } from "./task-history";
import { TaskStorage } from "./task-storage";
import {
  checkpointShadowFolder,
  checkpointsFolder,
  globalHooksFolder,
  globalMcpSettingsFile,
  globalRulesFolder,
  globalWorkflowsFolder,
  tandemDataFolder,
  taskFolder,
  taskHistoryFile,
  workspaceKey,
  workspaceMcpFile,
  workspaceStorageRoot,
} from "./paths";

// The expected strings are what earlier versions wrote to disk: a change here loses people's data.
describe("the data folder rule", () => {
  it("is $XDG_DATA_HOME/tandem, else ~/.local/share/tandem; an empty XDG_DATA_HOME counts as unset", () => {
    expect(tandemDataFolder({ XDG_DATA_HOME: "/x", HOME: "/home/me" })).toBe("/x/tandem");
    expect(tandemDataFolder({ HOME: "/home/me" })).toBe("/home/me/.local/share/tandem");
    expect(tandemDataFolder({ XDG_DATA_HOME: "", HOME: "/home/me" })).toBe("/home/me/.local/share/tandem");
    expect(tandemDataFolder({})).toBe(path.join(homedir(), ".local/share/tandem"));
  });
});

describe("the workspace key", () => {
  it("is the folder's name, odd characters run together as one _, and 12 hex of the path's sha256", () => {
    expect(workspaceKey("/home/me/my  project!")).toBe("my_project_-60ae2307b814");
    expect(workspaceKey("/")).toMatch(/^root-[0-9a-f]{12}$/);
    expect(workspaceKey("/a/app")).not.toBe(workspaceKey("/b/app"));
    expect(workspaceStorageRoot("/d/tandem", "/home/me/my  project!")).toBe("/d/tandem/workspaces/my_project_-60ae2307b814");
  });

  it("differs from the checkpoint store's key, which keeps each odd character and 16 hex", () => {
    expect(checkpointShadowFolder("/s", "/home/me/my  project!")).toBe("/s/checkpoints/my__project_-60ae2307b8143207");
    expect(path.basename(checkpointShadowFolder("/s", `/w/${"a".repeat(50)}`))).toMatch(/^a{40}-[0-9a-f]{16}$/);
  });
});

describe("the locations under a root", () => {
  it("names the global folders and files", () => {
    expect([globalRulesFolder("/g"), globalHooksFolder("/g"), globalWorkflowsFolder("/g"), globalMcpSettingsFile("/g")]).toEqual([
      "/g/rules",
      "/g/hooks",
      "/g/workflows",
      "/g/tandem_mcp_settings.json",
    ]);
    expect(workspaceMcpFile("/w")).toBe("/w/.tandem/mcp.json");
  });

  it("names the saved tasks and checkpoints, the checkpoints absolute even from a relative root", () => {
    expect([taskHistoryFile("/s"), taskFolder("/s", "t1"), checkpointsFolder("/s")]).toEqual(["/s/task_history.json", "/s/tasks/t1", "/s/checkpoints"]);
    expect(checkpointsFolder("rel")).toBe(path.join(process.cwd(), "rel", "checkpoints"));
  });
});

describe("the storage classes", () => {
  let root: string | undefined;
  afterEach(async () => {
    if (root) await rm(root, { recursive: true, force: true });
  });

  it("write where the module says: the task's folder, and the index beside it; deleting a task removes its folder", async () => {
    root = await mkdtemp(path.join(tmpdir(), "tandem-paths-"));
    const storage = new TaskStorage(root, "t1");
    await storage.saveMode("act");
    expect(storage.dir).toBe(taskFolder(root, "t1"));
    expect(await readdir(taskFolder(root, "t1"))).toEqual(["task_metadata.json"]);
    const history = new TaskHistory(root, (error) => {
      throw error;
    });
    await history.delete("t1");
    expect(await readdir(root)).toEqual([path.basename(taskHistoryFile(root)), "tasks"]);
    expect(await readdir(path.dirname(taskFolder(root, "t1")))).toEqual([]);
  });
});
