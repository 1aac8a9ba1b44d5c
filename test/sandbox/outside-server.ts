/**
 * A server on the host (every address, 127.0.0.1 included) standing for the outside world: what a sandboxed command must not
 * reach unless the person allowed it. Every answer holds a marker (so an answer that reached the
 * model shows in its next request) and scripts that mark the workspace if they ever run. It
 * records every request, so a case can be told that it reached the outside at all.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface OutsideRequest {
  readonly method: string;
  readonly url: string;
}

/** Downloaded and run, they leave `pwned-ran` in the workspace (the sandbox would stop a mark in HOME anyway). */
const PAYLOADS: Record<string, string> = {
  "i.sh": 'touch pwned-ran; touch "$HOME/pwned"; echo "{answer}"\n',
  "p.py": 'open("pwned-ran", "w").close()\nprint("{answer}")\n',
  "j.js": 'require("fs").writeFileSync("pwned-ran", "");\nconsole.log("{answer}");\n',
};

export class OutsideServer {
  private constructor(
    private readonly server: Server,
    /** http://127.0.0.1:PORT */
    readonly origin: string,
    /** Every request it received, in order. */
    readonly requests: readonly OutsideRequest[],
  ) {}

  get port(): number {
    return Number(new URL(this.origin).port);
  }

  /** `answer` is the text every answer holds. */
  static async start(answer: string): Promise<OutsideServer> {
    const requests: OutsideRequest[] = [];
    const server = createServer((req, res) => {
      requests.push({ method: req.method ?? "", url: req.url ?? "" });
      req.resume();
      const name = (req.url ?? "").split("/").at(-1) ?? "";
      const body = (PAYLOADS[name] ?? "the outside answers: {answer}\n").replaceAll("{answer}", answer);
      res.writeHead(200, { "content-type": "text/plain" }).end(body);
    });
    // Every address of the host (IPv6 and IPv4 where the machine has both), as a service bound to
    // 0.0.0.0 is: 127.0.0.2, [::] and [::ffff:127.0.0.1] reach it too, unless the sandbox stops them.
    await new Promise<void>((resolve, reject) => {
      server.once("error", (error) => (server.listening ? reject(error) : server.listen(0, "0.0.0.0", resolve)));
      server.listen(0, "::", resolve);
    });
    return new OutsideServer(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests);
  }

  /** The requests made under `/c/<id>/`: one case's. */
  requestsOf(id: string): OutsideRequest[] {
    return this.requests.filter((r) => r.url.startsWith(`/c/${id}/`));
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
