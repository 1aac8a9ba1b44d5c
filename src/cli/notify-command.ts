/**
 * The `--notify COMMAND`: run through /bin/sh at each notification the run makes, with its words in
 * environment variables and never in the command line, so nothing a model, a file name or a server
 * put in them can become shell code. A notification must never hold the task up or stop it: each
 * run is bounded (its process group is killed at the timeout), its output is not shown, and a
 * failure is said once per run. `settled()` lets the run's end wait for the last ones.
 */
import { spawn } from "node:child_process";
import { noticeText, type Notice } from "../shared/notice";

const TIMEOUT_MS = 10_000;
/** What a failed command's report quotes of its stderr. */
const STDERR_TAIL = 300;

export class NotifyCommand {
  private readonly running = new Set<Promise<void>>();
  private toldFailure = false;

  constructor(
    private readonly command: string,
    private readonly options: { readonly cwd: string; note(text: string): void; readonly timeoutMs?: number },
  ) {}

  /** Starts the command for `notice`; the task does not wait for it. */
  run(notice: Notice): void {
    const run = this.spawn(notice).then((problem) => {
      if (problem !== undefined) this.fail(problem);
    });
    this.running.add(run);
    void run.finally(() => this.running.delete(run));
  }

  /** Resolves once every run started so far has ended (each is bounded by the timeout). */
  async settled(): Promise<void> {
    await Promise.all(this.running);
  }

  /** Resolves with what went wrong, or undefined when the command exited 0. */
  private spawn(notice: Notice): Promise<string | undefined> {
    const timeoutMs = this.options.timeoutMs ?? TIMEOUT_MS;
    return new Promise((resolve) => {
      const child = spawn("/bin/sh", ["-c", this.command], {
        cwd: this.options.cwd,
        env: { ...process.env, ...noticeEnvironment(notice) },
        stdio: ["ignore", "ignore", "pipe"],
        // Its own process group, killed whole at the timeout.
        detached: true,
      });
      let stderr = "";
      child.stderr.setEncoding("utf8");
      child.stderr.on("data", (text: string) => (stderr = (stderr + text).slice(-STDERR_TAIL)));
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        killGroup(child.pid);
      }, timeoutMs);
      child.on("error", (error) => {
        clearTimeout(timer);
        resolve(`it could not be started: ${error.message}`);
      });
      child.on("close", (code, signal) => {
        clearTimeout(timer);
        const said = stderr.trim() ? `: ${stderr.trim()}` : "";
        if (timedOut) resolve(`it ran longer than ${Math.round(timeoutMs / 1000)} s and was stopped`);
        else if (code !== 0) resolve(`${signal ? `it was killed by ${signal}` : `it exited with code ${code}`}${said}`);
        else resolve(undefined);
      });
    });
  }

  private fail(problem: string): void {
    if (this.toldFailure) return;
    this.toldFailure = true;
    this.options.note(`tandem: the --notify command failed (${problem}); the task goes on, and later failures are not reported.`);
  }
}

/** What the command reads: the one line a notification shows, and what it is about. */
export function noticeEnvironment(notice: Notice): Record<string, string> {
  return {
    TANDEM_NOTIFICATION: noticeText(notice),
    TANDEM_NOTIFICATION_EVENT: notice.event,
    TANDEM_NOTIFICATION_KIND: notice.kind,
    TANDEM_TASK_ID: notice.taskId,
  };
}

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // Gone already.
  }
}
