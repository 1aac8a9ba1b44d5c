/**
 * The unit project's promise: no process, no network, no real waiting. Starting a process or
 * opening a socket in a unit test throws, and a sleep fails the test, each naming the way out, so
 * a slow test cannot join the fast suite unnoticed.
 * Integration tests (vitest.config.ts's INTEGRATION list) run without this guard.
 */
import childProcess from "node:child_process";
import { syncBuiltinESMExports } from "node:module";
import net from "node:net";
import { afterEach } from "vitest";

const WAY_OUT = "unit tests run no process and open no socket: move this test to the integration project (INTEGRATION in vitest.config.ts) or fake the boundary";

function refuse(what: string): never {
  throw new Error(`${what} in a unit test: ${WAY_OUT}`);
}

for (const name of ["spawn", "spawnSync", "exec", "execSync", "execFile", "execFileSync", "fork"] as const) {
  Object.assign(childProcess, { [name]: () => refuse(`child_process.${name}`) });
}
syncBuiltinESMExports();

net.Server.prototype.listen = function listen(): never {
  refuse("net.Server.listen");
};
net.Socket.prototype.connect = function connect(): never {
  refuse("net.Socket.connect");
};

/**
 * No real waiting either: a timer of SLEEP_MS or more that fires is a sleep, and fails the test
 * it fired in (fake timers, `vi.useFakeTimers()`, replace this one and are welcome). Timers that
 * are set as deadlines and cleared before they fire cost nothing and pass.
 */
const SLEEP_MS = 200;
const slept: string[] = [];
const realSetTimeout = globalThis.setTimeout;
globalThis.setTimeout = Object.assign(
  function setTimeout(callback: (...args: unknown[]) => void, delay?: number, ...args: unknown[]) {
    if (typeof callback !== "function" || !delay || delay < SLEEP_MS) return realSetTimeout(callback, delay, ...args);
    const where = new Error().stack?.split("\n").slice(2, 4).join(" <- ").trim() ?? "";
    return realSetTimeout(
      (...callArgs: unknown[]) => {
        slept.push(`a ${delay} ms timer fired (${where})`);
        callback(...callArgs);
      },
      delay,
      ...args,
    );
  },
  realSetTimeout,
) as typeof globalThis.setTimeout;

afterEach(() => {
  if (slept.length === 0) return;
  const found = slept.splice(0);
  throw new Error(`a unit test waited in real time: ${found.join("; ")}. Use vi.useFakeTimers() or wait for an event, or move the test to the integration project`);
});
