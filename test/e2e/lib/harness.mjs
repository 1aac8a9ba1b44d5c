/**
 * What a scenario gets: a way to start sessions the harness owns (so they are torn down even
 * when the scenario throws) and a logger. A scenario module exports a default async function
 * taking this harness, a one-line `description`, and, in self-check/, `expectedFailure`: a
 * pattern the failure message must match.
 */
import { startSession } from "./session.mjs";

/** @typedef {Awaited<ReturnType<typeof startSession>>} Session */

export class Harness {
  /** @type {Session[]} */
  #sessions = [];
  /** @type {Session[]} */
  #all = [];

  /** @param {string} name  the scenario's name */
  constructor(name) {
    this.name = name;
  }

  /** @param {Omit<import("./session.mjs").SessionOptions, "name">} [options] */
  async startSession(options = {}) {
    const session = await startSession({ name: this.name, ...options });
    this.#sessions.push(session);
    this.#all.push(session);
    return session;
  }

  /** @param {...unknown} parts */
  log(...parts) {
    console.log(`    ${this.name}:`, ...parts);
  }

  /** The highest memory any one session of this scenario used, in KiB. */
  get peakMemoryKiB() {
    return Math.max(0, ...this.#all.map((s) => s.peakMemoryKiB));
  }

  /** Where each session's time went. */
  get laps() {
    return this.#all.map((s) => s.laps.join(", "));
  }

  /** Screenshots and logs for a failure, then teardown of every session. */
  async close({ failed }) {
    const notes = [];
    if (failed) {
      for (const [index, session] of this.#sessions.entries()) {
        const label = index === 0 ? `${this.name}-failure` : `${this.name}-failure-${index + 1}`;
        notes.push(await keepEvidence(session, label));
      }
    }
    const sessions = this.#sessions.splice(0);
    const errors = [];
    for (const session of sessions.reverse()) {
      await session.close().catch((error) => errors.push(error instanceof Error ? error.message : String(error)));
    }
    if (errors.length > 0) throw new Error(errors.join("\n"));
    return notes;
  }
}

/** @param {Session} session */
async function keepEvidence(session, label) {
  const { saveScreenshot } = await import("./workbench.mjs");
  const shot = await saveScreenshot(session.page, label).catch((error) => `no screenshot (${error.message})`);
  return `evidence: ${shot}, ${session.saveLogs(label)}`;
}
