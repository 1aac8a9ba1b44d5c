/**
 * The unit and webview projects' promise: no process, no network. Starting a process or opening
 * a socket in a unit test throws and names the way out, so a slow test cannot join the fast suite
 * unnoticed (no-sleep.ts adds: no real waiting, for the unit project).
 * Integration tests (vitest.config.ts's INTEGRATION list) run without this guard.
 */
import childProcess from "node:child_process";
import { syncBuiltinESMExports } from "node:module";
import net from "node:net";

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

