/**
 * Built by sandbox-vendor.test.ts with the production options into a bundle folder, as core.js
 * and cli.js are: the sandbox library, bundled, wraps one command and runs it. Prints as JSON the
 * helper files the wrapped line names (they must be the ones beside the bundle), the command's
 * output and exit code. Asynchronous spawn: the library's proxies answer from this process.
 */
import { spawn } from "node:child_process";

async function main(): Promise<void> {
  const [workspace, applyPath] = process.argv.slice(2);
  if (!workspace) throw new Error("usage: node sandbox-probe.js <workspace> [apply-seccomp path]");
  const { SandboxManager } = await import("@anthropic-ai/sandbox-runtime");
  const dependencies = SandboxManager.checkDependencies();
  if (dependencies.errors.length > 0) {
    console.log(JSON.stringify({ dependencies }));
    return;
  }
  await SandboxManager.initialize({
    network: { allowedDomains: [], deniedDomains: [] },
    filesystem: { denyRead: [], allowWrite: [workspace], denyWrite: [] },
    ...(applyPath ? { seccomp: { applyPath } } : {}),
  });
  try {
    const wrapped = await SandboxManager.wrapWithSandbox("echo inside > done.txt && cat done.txt");
    const result = await new Promise<{ code: number | null; output: string }>((resolve) => {
      const child = spawn("/bin/sh", ["-c", wrapped], { cwd: workspace, stdio: ["ignore", "pipe", "pipe"] });
      let output = "";
      child.stdout.on("data", (data: Buffer) => (output += data.toString()));
      child.stderr.on("data", (data: Buffer) => (output += data.toString()));
      child.on("close", (code) => resolve({ code, output }));
    });
    const seccomp = /(\S*)\/apply-seccomp\b/.exec(wrapped)?.[0];
    const javaAgent = /-javaagent:(\S+\.jar)/.exec(wrapped)?.[1];
    console.log(JSON.stringify({ dependencies, seccomp, javaAgent, ...result }));
  } finally {
    await SandboxManager.reset();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
