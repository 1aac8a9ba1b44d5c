/**
 * Ids for the virtual documents of Tandem's diff views (their URI queries): a random prefix per
 * extension host and a counter. VS Code never reuses a cached document of an earlier view, and a
 * tab an earlier host left behind (restored after a reload) is told apart from this host's own.
 */
import { randomUUID } from "node:crypto";

export class HostScopedIds {
  private readonly prefix = `${randomUUID().slice(0, 8)}-`;
  private counter = 0;

  next(): string {
    return `${this.prefix}${++this.counter}`;
  }

  isOwn(id: string): boolean {
    return id.startsWith(this.prefix);
  }
}
