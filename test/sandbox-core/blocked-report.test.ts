/** What the model is told after a sandboxed command: only when something points to the sandbox, never file content. */
import { describe, expect, it } from "vitest";
import { describeBlocked, findBlocked, type BlockedFacts } from "../../src/core/sandbox/blocked-report";
import { confinementOf } from "../../src/core/sandbox/task-commands";
import { DEFAULT_SANDBOX_SETTINGS } from "../../src/shared/settings";

const base: BlockedFacts = {
  exitCode: 1,
  output: "",
  violations: "",
  scope: { cwd: "/ws", roots: ["/ws"], tempDir: "/tmp/tandem-task-1", hiddenReads: ["/ws/.env"], readOnly: [] },
  settings: DEFAULT_SANDBOX_SETTINGS,
  status: {
    mode: "auto",
    available: true,
    active: true,
    refusesCommands: false,
    network: "allowList",
    allowedDomains: ["registry.npmjs.org"],
    writableFolders: [],
    deniedReads: ["/home/me/.ssh"],
  },
  home: "/home/me",
};

describe("describeBlocked", () => {
  it("says nothing when nothing points to the sandbox", () => {
    expect(describeBlocked({ ...base, output: "2 tests failed" })).toBeUndefined();
    expect(describeBlocked({ ...base, exitCode: 0, output: "ok", violations: "<sandbox_violations>\ndeny openat /elsewhere/x\n</sandbox_violations>" })).toBeUndefined();
  });

  it("names a blocked write, what is writable, and the way to run outside", () => {
    const text = describeBlocked({ ...base, output: "bash: /etc/x: Read-only file system", violations: "<sandbox_violations>\ndeny openat /etc/x\n</sandbox_violations>" });
    expect(text).toMatch(/read-only file system/);
    expect(text).toMatch(/recorded: deny openat \/etc\/x/);
    expect(text).toMatch(/\/ws \(the workspace\)/);
    expect(text).toMatch(/<sandbox>off<\/sandbox>/);
  });

  it("names every workspace folder as writable, and a write into another folder's guard files as blocked", () => {
    const scope = { ...base.scope, roots: ["/ws", "/web"] };
    const violations = "<sandbox_violations>\ndeny openat /web/out.txt\ndeny openat /web/.vscode/settings.json\n</sandbox_violations>";
    const text = describeBlocked({ ...base, scope, output: "bash: /web/.vscode/settings.json: Read-only file system", violations }) ?? "";
    expect(text).toMatch(/\/ws \(a workspace folder\), \/web \(a workspace folder\)/);
    expect(text).not.toMatch(/\/web\/out\.txt/);
    expect(text).toMatch(/\/web\/\.vscode\/settings\.json/);
  });

  it("drops recorded writes that landed in a writable folder, keeps those into protected paths", () => {
    const violations = "<sandbox_violations>\ndeny openat /ws/out.txt\ndeny openat /ws/.git/hooks/pre-commit\n</sandbox_violations>";
    const scope = { ...base.scope, readOnly: ["/ws/.git/hooks"] };
    const text = describeBlocked({ ...base, scope, output: "failed", violations }) ?? "";
    expect(text).not.toMatch(/\/ws\/out\.txt/);
    expect(text).toMatch(/\.git\/hooks\/pre-commit/);
  });

  it("reports a network denial even when the command exited 0, and a hidden file named relatively", () => {
    const text = describeBlocked({ ...base, exitCode: 0, output: "Connection blocked by network allowlist", violations: "<sandbox_violations>\ndeny network-outbound evil.example.com:80 (host is not on the allow list)\n</sandbox_violations>" });
    expect(text).toMatch(/evil\.example\.com:80/);
    expect(describeBlocked({ ...base, output: "cat: .env: Permission denied" })).toMatch(/\/ws\/\.env, which the sandbox hides/);
  });

  it("names a hidden credential store and a host off the allow list", () => {
    expect(describeBlocked({ ...base, output: "cat: /home/me/.ssh/id_rsa: No such file or directory" })).toMatch(/\/home\/me\/\.ssh, which the sandbox hides/);
    expect(describeBlocked({ ...base, exitCode: 56, output: "curl: (56) CONNECT tunnel failed, response 403" })).toMatch(/not on the network allow list.*registry\.npmjs\.org/s);
  });
});

describe("findBlocked: the same finding for the person", () => {
  it("names the write outside, resolved from the command's folder, and the setting that allows it", () => {
    const found = findBlocked({ ...base, exitCode: 2, output: "/bin/sh: 1: cannot create ../outside.txt: Read-only file system\n" });
    expect(found?.forModel).toBe(describeBlocked({ ...base, exitCode: 2, output: "/bin/sh: 1: cannot create ../outside.txt: Read-only file system\n" }));
    expect(found?.forPerson).toEqual([
      { kind: "write", target: "/outside.txt", evidence: "/bin/sh: 1: cannot create ../outside.txt: Read-only file system", setting: "tandem.sandbox.writableFolders" },
    ]);
  });

  it("reads the path from quoted forms and from HOME", () => {
    const touch = findBlocked({ ...base, output: "touch: cannot touch '/etc/x': Read-only file system" });
    expect(touch?.forPerson[0]).toMatchObject({ kind: "write", target: "/etc/x" });
    const python = findBlocked({ ...base, output: "OSError: [Errno 30] Read-only file system: '~/notes.txt'" });
    expect(python?.forPerson[0]).toMatchObject({ kind: "write", target: "/home/me/notes.txt" });
  });

  it("a protected path in the workspace has no setting: only a run outside the sandbox writes it", () => {
    const found = findBlocked({ ...base, output: "touch: cannot touch '.vscode/settings.json': Read-only file system" });
    expect(found?.forPerson).toEqual([{ kind: "protected", target: "/ws/.vscode/settings.json", evidence: "touch: cannot touch '.vscode/settings.json': Read-only file system" }]);
  });

  it("a recorded device write is no folder to list", () => {
    const found = findBlocked({ ...base, violations: "<sandbox_violations>\ndeny openat /dev/console\n</sandbox_violations>" });
    expect(found?.forPerson).toEqual([{ kind: "other", target: "/dev/console", evidence: "deny openat /dev/console" }]);
  });

  it("a hidden file is one read block, not also a bare permission denied", () => {
    const found = findBlocked({ ...base, output: "cat: .env: Permission denied" });
    expect(found?.forPerson).toEqual([{ kind: "read", target: "/ws/.env", evidence: "cat: .env: Permission denied" }]);
  });

  it("a refused host points to the allow list, or to the network setting when there is none", () => {
    const record = "<sandbox_violations>\ndeny network-outbound evil.example.com:443 (host is not on the allow list)\n</sandbox_violations>";
    const found = findBlocked({ ...base, exitCode: 56, output: "curl: (56) CONNECT tunnel failed, response 403", violations: record });
    expect(found?.forPerson).toEqual([
      { kind: "network", evidence: "curl: (56) CONNECT tunnel failed, response 403", setting: "tandem.sandbox.allowedDomains" },
      { kind: "network", target: "evil.example.com", evidence: "deny network-outbound evil.example.com:443 (host is not on the allow list)", setting: "tandem.sandbox.allowedDomains" },
    ]);
    const none = findBlocked({ ...base, settings: { ...base.settings, network: "none" }, output: "curl: (6) Could not resolve host: example.com" });
    expect(none?.forPerson).toEqual([{ kind: "network", target: "example.com", evidence: "curl: (6) Could not resolve host: example.com", setting: "tandem.sandbox.network" }]);
  });
});

describe("confinementOf: one rule for the row and the run", () => {
  const status = base.status;
  it("says what the sandbox allows, or why there is none", () => {
    expect(confinementOf({ ...status, technology: "bubblewrap" }, false)).toEqual({ kind: "sandboxed", technology: "bubblewrap", network: "allowList", allowedDomains: 1, writableFolders: [] });
    expect(confinementOf(status, true)).toEqual({ kind: "outside" });
    expect(confinementOf({ ...status, mode: "off", active: false }, false)).toEqual({ kind: "none", why: "off" });
    expect(confinementOf({ ...status, available: false, active: false, reason: "bwrap is missing" }, false)).toEqual({ kind: "none", why: "unavailable", reason: "bwrap is missing" });
    expect(confinementOf(undefined, false)).toEqual({ kind: "none", why: "unavailable" });
  });
});
