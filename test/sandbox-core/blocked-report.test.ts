/** What the model is told after a sandboxed command: only when something points to the sandbox, never file content. */
import { describe, expect, it } from "vitest";
import { describeBlocked, type BlockedFacts } from "../../src/core/sandbox/blocked-report";
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
