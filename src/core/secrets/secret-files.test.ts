import { mkdir, mkdtemp, realpath, rm, symlink, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { nameRoots, WorkspaceRoots } from "../util/workspace-roots";
import { SecretFiles } from "./secret-files";

let dir: string;
let ws: string;
let home: string;

beforeEach(async () => {
  dir = await realpath(await mkdtemp(path.join(tmpdir(), "tandem-secret-files-")));
  ws = path.join(dir, "ws");
  home = path.join(dir, "home");
  await mkdir(path.join(ws, "services/api"), { recursive: true });
  await mkdir(path.join(ws, "node_modules/pkg"), { recursive: true });
  await mkdir(path.join(home, ".aws"), { recursive: true });
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const values = async (files: SecretFiles, wait = true) => (await files.values(wait)).map((s) => `${s.source}=${s.value}`);

describe("SecretFiles", () => {
  it("finds secret files at any depth, through links out of the workspace, and HOME's stores; not inside dependency folders", async () => {
    await writeFile(path.join(ws, "services/api/.env.local"), "API_SECRET=deep-value-123\n");
    await writeFile(path.join(ws, "node_modules/pkg/.env"), "PKG_TOKEN=packaged-value-1\n");
    const outside = path.join(dir, "outside");
    await mkdir(outside);
    await writeFile(path.join(outside, "secrets.yaml"), "db_password: linked-value-9\n");
    await symlink(outside, path.join(ws, "linked"));
    await writeFile(path.join(home, ".aws/credentials"), "[default]\naws_secret_access_key = home-value-777\n");
    const found = await values(new SecretFiles(WorkspaceRoots.single(ws), home));
    expect(found).toEqual(
      expect.arrayContaining([
        "API_SECRET in services/api/.env.local=deep-value-123",
        `db_password in ${path.join(outside, "secrets.yaml")}=linked-value-9`,
        "aws_secret_access_key in ~/.aws/credentials=home-value-777",
      ]),
    );
    expect(found.join("\n")).not.toContain("packaged-value-1");
  });

  it("the first request does not wait for the walk, but sees the roots' own files; a changed file is read again", async () => {
    const env = path.join(ws, ".env");
    await writeFile(env, "TOKEN=first-value-1\n");
    await writeFile(path.join(ws, "services/.env"), "TOKEN=nested-value-2\n");
    const files = new SecretFiles(WorkspaceRoots.single(ws), undefined);
    const first = await values(files, false);
    expect(first).toContain("TOKEN in .env=first-value-1");
    await writeFile(env, "TOKEN=second-value-22\n");
    await utimes(env, new Date(), new Date(Date.now() + 5_000));
    const later = await values(files);
    expect(later).toContain("TOKEN in .env=second-value-22");
    expect(later).toContain("TOKEN in services/.env=nested-value-2");
    expect(later.join("\n")).not.toContain("first-value-1");
  });

  it("finds every workspace folder's secret files, each named as the model writes its path", async () => {
    const web = path.join(dir, "web");
    await mkdir(path.join(web, "config"), { recursive: true });
    await writeFile(path.join(web, ".env"), "WEB_TOKEN=second-root-value-1\n");
    await writeFile(path.join(web, "config", "credentials"), "password=second-root-deep-2\n");
    const found = await values(new SecretFiles(WorkspaceRoots.of(nameRoots([{ path: ws }, { path: web }])), undefined));
    expect(found).toEqual(expect.arrayContaining(["WEB_TOKEN in web/.env=second-root-value-1", "password in web/config/credentials=second-root-deep-2"]));
    // The second folder's own entries are judged at every request too, before any walk.
    const early = await values(new SecretFiles(WorkspaceRoots.of(nameRoots([{ path: ws }, { path: web }])), undefined), false);
    expect(early).toContain("WEB_TOKEN in web/.env=second-root-value-1");
  });
});
