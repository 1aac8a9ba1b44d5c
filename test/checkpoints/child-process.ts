/**
 * Runs store-child.ts as a process of its own, bundled once so it starts fast, in its own process
 * group: a kill of the group takes its git children down with it, as a crash of the whole
 * extension host would, so their lock files and half-written objects stay behind.
 */
import { spawn } from "node:child_process";
import * as path from "node:path";
import * as esbuild from "esbuild";

export async function bundleStoreChild(outDir: string): Promise<string> {
  const outfile = path.join(outDir, "store-child.js");
  await esbuild.build({
    entryPoints: [path.join(import.meta.dirname, "store-child.ts")],
    outfile,
    bundle: true,
    format: "cjs",
    platform: "node",
    target: "node20",
    logLevel: "silent",
  });
  return outfile;
}

export interface RunningChild {
  /** Resolves when the child printed "started" (it is about to run its operation). */
  readonly started: Promise<void>;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>;
  readonly pid: number;
  /** SIGKILL to the child and every process it started. */
  killGroup(): void;
}

export function startChild(script: string, args: string[]): RunningChild {
  const child = spawn(process.execPath, [script, ...args], { detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  let onStarted: () => void = () => undefined;
  const started = new Promise<void>((resolve) => (onStarted = resolve));
  child.stdout.on("data", (data: Buffer) => {
    stdout += data.toString();
    if (stdout.includes("started\n")) onStarted();
  });
  child.stderr.on("data", (data: Buffer) => (stderr += data.toString()));
  const guard = setTimeout(() => killGroup(), 60_000);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((resolve) => {
    child.on("exit", (code, signal) => {
      clearTimeout(guard);
      onStarted();
      resolve({ code, signal, stdout, stderr });
    });
  });
  function killGroup(): void {
    try {
      process.kill(-(child.pid as number), "SIGKILL");
    } catch {
      // already gone
    }
  }
  return { started, exited, pid: child.pid as number, killGroup };
}
