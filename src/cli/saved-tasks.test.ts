import { describe, expect, it } from "vitest";
import { privateStorageFor, storageRootFor } from "./saved-tasks";

const env = { XDG_DATA_HOME: "/data", HOME: "/home/me" };

describe("storageRootFor", () => {
  it("is the workspace's folder under the data folder, --storage DIR, or none", () => {
    expect(storageRootFor({ kind: "default" }, "/w/app", env)).toMatch(/^\/data\/tandem\/workspaces\/app-[0-9a-f]{12}$/);
    expect(storageRootFor({ kind: "dir", dir: "/elsewhere" }, "/w/app", env)).toBe("/elsewhere");
    expect(storageRootFor({ kind: "none" }, "/w/app", env)).toBeUndefined();
  });
});

describe("privateStorageFor", () => {
  // Before, only the run's own workspace folder was hidden: with XDG_DATA_HOME outside HOME, a
  // sandboxed command could read the MCP settings and every other workspace's saved tasks.
  it("hides the whole data folder wherever XDG_DATA_HOME puts it, with or without saved tasks", () => {
    const root = storageRootFor({ kind: "default" }, "/w/app", env);
    expect(privateStorageFor(root, env)).toEqual(["/data/tandem"]);
    expect(privateStorageFor(undefined, env)).toEqual(["/data/tandem"]);
    expect(privateStorageFor("/elsewhere", env)).toEqual(["/elsewhere", "/data/tandem"]);
    expect(privateStorageFor(undefined, { HOME: "/home/me" })).toEqual(["/home/me/.local/share/tandem"]);
  });
});
