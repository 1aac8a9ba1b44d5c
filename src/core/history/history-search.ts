/**
 * History's search, in the host: every listed task's text and conversation digest, folded once
 * and kept in memory, matched against each query (`text-match.ts`). Only the first search reads
 * files (the digests); after that a keystroke costs the matching alone, and a query that extends
 * the last one looks only among the last one's matches (a match of "retry f" is a match of "retry").
 */
import { inScope } from "../../shared/history-view";
import type { HistoryItem, HistoryMatch, HistoryScope, TextRange } from "../../shared/protocol";
import type { TaskHistory } from "../storage/task-history";
import type { TaskDigests } from "./task-digests";
import { foldCase, matchDigest, matchText, parseQuery, RANK, snippetOf, type Query } from "./text-match";

/** A task's strings as matched: each original with its folded copy (refolded only when it changes). */
interface Folded {
  text: string;
  foldedText: string;
  digest: string;
  foldedDigest: string;
}

export interface SearchOptions {
  readonly scope?: { readonly scope: HistoryScope; readonly root: string };
  readonly limit?: number;
}

/** A match before its snippet is cut: where in the task's text, or in its digest. */
interface Hit {
  readonly item: HistoryItem;
  readonly rank: number;
  readonly field: "text" | "conversation";
  readonly ranges: readonly TextRange[];
  readonly digest: string;
}

export class HistorySearch {
  private readonly folded = new Map<string, Folded>();
  private index: { items: readonly HistoryItem[]; byId: ReadonlyMap<string, HistoryItem> } | undefined;
  /** The last query's matches, and what they were found among: valid for narrowing while neither changed. */
  private last: { query: Query; items: readonly HistoryItem[]; version: number; scope: string; ids: readonly string[] } | undefined;

  constructor(
    private readonly history: TaskHistory,
    private readonly digests: TaskDigests,
  ) {}

  /**
   * The tasks matching `raw`, best first (newest first among equals); none for an empty query,
   * which only loads what searching needs (History warms it up so as it opens). `scope`: only the
   * tasks History shows in it for the workspace `root` (shared/history-view.ts). `limit`: the
   * matches made whole (with their snippet), the best first; `total` counts them all.
   */
  async search(raw: string, options: SearchOptions = {}): Promise<{ matches: HistoryMatch[]; total: number }> {
    const items = await this.history.list();
    // Reads only the digests not in memory yet: all of them the first time, none after.
    await this.digests.load(items.map((item) => item.id));
    const query = parseQuery(raw);
    if (!query) return { matches: [], total: 0 };
    const { scope } = options;
    const last = this.last;
    const scopeKey = scope ? `${scope.scope}:${scope.root}` : "";
    const narrow = last && last.items === items && last.version === this.digests.version && last.scope === scopeKey && query.text.startsWith(last.query.text);
    const byId = this.byId(items);
    const candidates = narrow ? last.ids.flatMap((id) => byId.get(id) ?? []) : scope ? items.filter((item) => inScope(item, scope.scope, scope.root)) : items;
    const hits: Hit[] = [];
    for (const item of candidates) {
      const hit = this.match(item, query);
      if (hit) hits.push(hit);
    }
    hits.sort((a, b) => a.rank - b.rank || b.item.startedAt - a.item.startedAt);
    this.last = { query, items, version: this.digests.version, scope: scopeKey, ids: hits.map((hit) => hit.item.id) };
    // Snippets only for the matches shown: a one-letter query may match every task.
    const shown = options.limit === undefined ? hits : hits.slice(0, options.limit);
    return { matches: shown.map((hit) => this.whole(hit)), total: hits.length };
  }

  /** Drops what is kept of deleted tasks. */
  forget(ids: readonly string[]): void {
    for (const id of ids) this.folded.delete(id);
    this.last = undefined;
  }

  /** The items by id, made again only when the list changed. */
  private byId(items: readonly HistoryItem[]): ReadonlyMap<string, HistoryItem> {
    if (this.index?.items !== items) this.index = { items, byId: new Map(items.map((item) => [item.id, item])) };
    return this.index.byId;
  }

  private match(item: HistoryItem, query: Query): Hit | undefined {
    const strings = this.stringsOf(item);
    const inText = matchText(strings.foldedText, query);
    // The text's exact, prefix and substring matches beat anything the conversation has.
    const inDigest = inText && inText.rank < RANK.conversationSubstring ? undefined : matchDigest(strings.foldedDigest, query);
    if (inText && (!inDigest || inText.rank < inDigest.rank)) return { item, rank: inText.rank, field: "text", ranges: inText.ranges, digest: strings.digest };
    return inDigest && { item, rank: inDigest.rank, field: "conversation", ranges: inDigest.ranges, digest: strings.digest };
  }

  private whole(hit: Hit): HistoryMatch {
    if (hit.field === "text") return { id: hit.item.id, rank: hit.rank, field: "text", ranges: hit.ranges };
    const { text, by, ranges } = snippetOf(hit.digest, hit.ranges);
    return { id: hit.item.id, rank: hit.rank, field: "conversation", ranges, snippet: { text, by } };
  }

  private stringsOf(item: HistoryItem): Folded {
    const digest = this.digests.get(item.id) ?? "";
    let strings = this.folded.get(item.id);
    if (!strings) {
      strings = { text: item.text, foldedText: foldCase(item.text), digest, foldedDigest: foldCase(digest) };
      this.folded.set(item.id, strings);
      return strings;
    }
    if (strings.text !== item.text) Object.assign(strings, { text: item.text, foldedText: foldCase(item.text) });
    if (strings.digest !== digest) Object.assign(strings, { digest, foldedDigest: foldCase(digest) });
    return strings;
  }
}
