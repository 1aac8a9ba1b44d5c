/**
 * When FileJournal compacts: once the bytes of superseded lines outweigh the live list
 * (compactFactor x live + slackBytes). Counting wrong either way costs the person: too late and
 * the file grows with every edit; too early and each change rewrites the whole history.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { mkdtemp, rm, unlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { WriteStats } from "./atomic-write";
import { FileJournal } from "./journal";
import { encodeOp, encodeReset, parseOps, replay, type JournalOp } from "./journal-format";

interface Row {
  ts: number;
  text: string;
}
const row = (ts: number, size: number, fill = "x"): Row => ({ ts, text: fill.repeat(size) });

let root: string;
beforeEach(async () => (root = await mkdtemp(path.join(tmpdir(), "tandem-journal-compaction-"))));
afterEach(() => rm(root, { recursive: true, force: true }));

/** A journal over an in-memory list that each op also changes, as MessageState does. */
let journals = 0;
function journalOf(keyed: boolean, stats?: WriteStats) {
  const file = path.join(root, `list-${++journals}.jsonl`);
  let items: Row[] = [];
  const errors: unknown[] = [];
  const keyOf = keyed ? (item: Row) => item.ts : undefined;
  const journal = new FileJournal<Row>({ file, current: () => items, onError: (e) => errors.push(e), keyOf, compactFactor: 1, slackBytes: 0, stats });
  const apply = async (op: JournalOp<Row>) => {
    items = replay(items, [op], keyOf);
    journal.append(op);
    await journal.flush();
  };
  /** Appends without waiting: a change made while a compaction runs. */
  const appendNow = (op: JournalOp<Row>) => {
    items = replay(items, [op], keyOf);
    journal.append(op);
  };
  const lines = () => readFileSync(file, "utf8").split("\n").filter(Boolean).length;
  const onDisk = () => replay([], parseOps<Row>(readFileSync(file, "utf8"), file), keyOf);
  return { apply, appendNow, flush: () => journal.flush(), lines, onDisk, errors, items: () => items, file };
}

describe("FileJournal compaction", () => {
  it("compacts a keyed list once replaced items outweigh the live ones, not before", async () => {
    const j = journalOf(true);
    await j.apply({ push: row(1, 100) });
    await j.apply({ push: row(2, 30) });
    await j.apply({ set: row(1, 100, "y") }); // superseded: about 120 bytes, live about 150
    expect(j.lines()).toBe(3);
    await j.apply({ set: row(1, 100, "z") }); // superseded about 240 > live about 150
    expect(j.lines()).toBe(1);
    expect(j.onDisk()).toEqual(j.items());
    expect(j.errors).toEqual([]);
  });

  it("counts removed items as superseded, with the drop line itself", async () => {
    const j = journalOf(true);
    await j.apply({ push: row(1, 100) });
    await j.apply({ push: row(2, 30) });
    await j.apply({ drop: [1] }); // superseded about 130 > live about 50
    expect(j.lines()).toBe(1);
    expect(j.onDisk()).toEqual([row(2, 30)]);
  });

  it("keeps the journal when what was removed is small beside what lives", async () => {
    const j = journalOf(true);
    await j.apply({ push: row(1, 30) });
    await j.apply({ push: row(2, 100) });
    await j.apply({ drop: [1, 7] }); // superseded about 70 < live about 120
    expect(j.lines()).toBe(3);
    await j.apply({ push: row(3, 10) });
    expect(j.lines()).toBe(4);
  });

  it("counts everything before a reset as superseded, and the reset's items as live", async () => {
    const j = journalOf(true);
    await j.apply({ push: row(1, 100) });
    await j.apply({ push: row(2, 100) });
    await j.apply({ reset: [row(3, 100), row(4, 30)] }); // superseded about 240 > live about 170
    expect(j.lines()).toBe(1);
    const k = journalOf(true);
    await k.apply({ reset: [row(1, 100), row(2, 30)] });
    await k.apply({ set: row(1, 100, "y") }); // the reset's item 1 is superseded: about 120 < live
    expect(k.lines()).toBe(2);
    await k.apply({ set: row(1, 100, "z") });
    expect(k.lines(), "the second replacement tips it").toBe(1);
    expect(k.onDisk()).toEqual(k.items());
  });

  it("counts replaced positions of a plain list, and an item pushed as live", async () => {
    const j = journalOf(false);
    await j.apply({ push: row(1, 100) });
    await j.apply({ push: row(2, 30) });
    await j.apply({ replace: { index: 0, item: row(1, 100, "y") } });
    expect(j.lines()).toBe(3);
    await j.apply({ replace: { index: 0, item: row(1, 100, "z") } });
    expect(j.lines()).toBe(1);
    expect(j.onDisk()).toEqual(j.items());
    const k = journalOf(false);
    await k.apply({ reset: [row(1, 100), row(2, 30)] });
    await k.apply({ replace: { index: 0, item: row(1, 100, "y") } });
    expect(k.lines()).toBe(2);
    await k.apply({ replace: { index: 0, item: row(1, 100, "z") } });
    expect(k.lines(), "positions the reset wrote count too").toBe(1);
  });

  it("never compacts a list that only grows", async () => {
    const stats: WriteStats = { bytes: 0, fsyncs: 0 };
    const j = journalOf(true, stats);
    for (let i = 1; i <= 20; i++) await j.apply({ push: row(i, 50) });
    expect(j.lines()).toBe(20);
    expect(stats.bytes).toBe(readFileSync(j.file).length);
  });

  it("counts a drop line's own bytes as superseded: a long drop of a few small items tips it", async () => {
    const j = journalOf(true);
    await j.apply({ push: row(1, 30) });
    await j.apply({ push: row(2, 100) });
    const many = Array.from({ length: 60 }, (_, i) => 1000 + i);
    await j.apply({ drop: [1, ...many] }); // about 50 + 360 superseded > live about 120
    expect(j.lines()).toBe(1);
    expect(j.onDisk()).toEqual([row(2, 100)]);
  });

  it("counts the bytes a compaction writes, and syncs again only for changes made while it ran", async () => {
    const run = async (during: boolean) => {
      const stats: WriteStats = { bytes: 0, fsyncs: 0 };
      const j = journalOf(true, stats);
      const ops: JournalOp<Row>[] = [{ push: row(1, 100) }, { push: row(2, 30) }, { set: row(1, 100, "y") }];
      for (const op of ops) await j.apply(op);
      const fsyncs = stats.fsyncs;
      j.appendNow({ set: row(1, 100, "z") }); // starts the compaction
      const snapshot = encodeReset(j.items()).line;
      if (during) j.appendNow({ set: row(2, 30, "w") });
      await j.flush();
      const written = [...ops, { set: row(1, 100, "z") }].map((op) => encodeOp(op).length).reduce((a, b) => a + b);
      const tail = during ? encodeOp({ set: row(2, 30, "w") }).length : 0;
      // The old file's lines, the snapshot, and the changes made meanwhile (in the old file and the new).
      expect(stats.bytes).toBe(written + snapshot.length + 2 * tail);
      expect(readFileSync(j.file, "utf8")).toBe(snapshot + (during ? encodeOp({ set: row(2, 30, "w") }) : ""));
      expect(j.onDisk()).toEqual(j.items());
      return stats.fsyncs - fsyncs;
    };
    const quiet = await run(false);
    expect(await run(true)).toBe(quiet + 1);
  });

  it("syncs nothing at the end of a session that changed nothing", async () => {
    const stats: WriteStats = { bytes: 0, fsyncs: 0 };
    const file = path.join(root, "earlier.jsonl");
    writeFileSync(file, encodeOp({ push: row(1, 10) }));
    const journal = new FileJournal<Row>({ file, current: () => [], onError: (e) => { throw e; }, stats });
    await journal.flush();
    expect(stats.fsyncs).toBe(0);
  });

  it("by default leaves 64 KiB of superseded lines before it compacts", async () => {
    const file = path.join(root, "default.jsonl");
    let items: Row[] = [];
    const journal = new FileJournal<Row>({ file, current: () => items, onError: (e) => { throw e; }, keyOf: (item) => item.ts });
    for (let i = 0; i < 40; i++) {
      const op: JournalOp<Row> = { set: row(1, 1000, String.fromCharCode(97 + (i % 26))) };
      items = replay(items, [op], (item) => item.ts);
      journal.append(op);
    }
    await journal.flush();
    expect(readFileSync(file, "utf8").split("\n").filter(Boolean)).toHaveLength(40); // about 40 KB superseded
    for (let i = 0; i < 30; i++) journal.append({ set: row(1, 1000) });
    await journal.flush();
    expect(readFileSync(file, "utf8").split("\n").filter(Boolean).length, "past 64 KiB it compacts").toBeLessThan(70);
  });

  it("reports nothing when the task's file was deleted before the end of the task", async () => {
    const errors: unknown[] = [];
    const file = path.join(root, "deleted.jsonl");
    const journal = new FileJournal<Row>({ file, current: () => [], onError: (e) => errors.push(e) });
    journal.append({ push: row(1, 10) });
    await unlink(file);
    await journal.flush();
    expect(errors).toEqual([]);
  });
});
