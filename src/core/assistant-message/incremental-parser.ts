/**
 * The streaming twin of parseAssistantMessageV2: after every `append` its blocks deep-equal
 * `parseAssistantMessageV2(allTextSoFar)`, for a cost linear in the chunk rather than the message.
 *
 * How: a state machine keeps its place across chunks and holds on to the unconsumed text only (at
 * most the longest tag, while a tag may still be arriving). Completed blocks are never looked at
 * again; only the last, open block is updated. Values grow as ropes (value-builders.ts) so neither
 * slicing the whole message nor re-trimming a growing value happens per chunk.
 *
 * Raw values (see the rules in parse-assistant-message.ts) need two readings of the same text once a
 * `</content>` has been confirmed by a following parameter tag: the value may still grow past it (up
 * to the last confirmed one before `</write_to_file>`), while the text after it is also the tool's
 * body. So the raw state scans on for further closing tags and, alongside, runs a body machine from
 * the last confirmed one; a newly confirmed one absorbs the text in between into the value and
 * restarts the body; `</write_to_file>` settles the value and the body machine takes over.
 */
import type { AssistantMessageContent, TextContent, ToolGrammar, ToolUse } from "./types";
import { ScanWindow } from "./scan-window";
import { type CompiledGrammar, type CompiledTool, DEFAULT_TOOL_GRAMMAR, PARTIAL, compileGrammar } from "./tool-tags";
import { RawValue, TrimmedValue } from "./value-builders";

/** All positions are offsets in the whole message; the ScanWindow holds only the text from `base` on. */
interface Between {
  kind: "between";
  pos: number;
}
interface ParamState {
  kind: "param";
  pos: number;
  name: string;
  close: string;
  value: TrimmedValue;
}
interface RawState {
  kind: "raw";
  pos: number;
  name: string;
  close: string;
  /** The value up to the last confirmed closing tag (before one: everything scanned so far). */
  value: RawValue;
  /** After a closing tag whose follower has not arrived yet: the whitespace seen since it. */
  cand: string | null;
  /** The tool's params when this parameter opened. */
  snapshot: Record<string, string>;
  /** Once a closing tag has been confirmed by a parameter tag: the text since it, and the body read from it. */
  after: { since: RawValue; body: ToolMachine } | null;
}
type BodyState = Between | ParamState | RawState;

/** Reads one tool's body into `params`. */
interface ToolMachine {
  tool: CompiledTool;
  params: Record<string, string>;
  state: BodyState;
}

type Top = { kind: "text"; pos: number; value: TrimmedValue } | { kind: "tool"; block: ToolUse; machine: ToolMachine };

export class IncrementalAssistantMessageParser {
  private readonly grammar: CompiledGrammar;
  private readonly out: AssistantMessageContent[] = [];
  private readonly scan = new ScanWindow();
  private top: Top = { kind: "text", pos: 0, value: new TrimmedValue() };
  /** The last block of `out` while it is still partial; null when every block in `out` is final. */
  private open: AssistantMessageContent | null = null;
  /** How much text has been appended. */
  private length = 0;

  constructor(grammar: ToolGrammar = DEFAULT_TOOL_GRAMMAR) {
    this.grammar = compileGrammar(grammar);
  }

  get blocks(): readonly AssistantMessageContent[] {
    return this.out;
  }

  /** Forgets everything, to parse a new message. */
  reset(): void {
    this.out.length = 0;
    this.scan.reset();
    this.top = { kind: "text", pos: 0, value: new TrimmedValue() };
    this.open = null;
    this.length = 0;
  }

  /** Adds the next piece of the message; returns the blocks of everything appended so far. */
  append(chunk: string): readonly AssistantMessageContent[] {
    if (typeof chunk !== "string") {
      throw new TypeError(`IncrementalAssistantMessageParser.append: expected a string, got ${typeof chunk}`);
    }
    if (chunk === "") return this.out;
    const at = this.length;
    this.length += chunk.length;
    if (this.appendPlain(chunk, at)) return this.out;
    this.scan.shift(this.keepFrom(), chunk);
    this.run();
    this.refresh();
    return this.out;
  }

  /**
   * The common case while a value streams: nothing is held back and the chunk neither contains nor
   * ends inside the one tag that could end the open value (or, for prose and junk between
   * parameters, has no `<` at all). Then it all belongs where the previous text went, and the
   * scanner can be skipped; its stale window is simply dropped by the next `shift`.
   */
  private appendPlain(chunk: string, at: number): boolean {
    const lt = chunk.indexOf("<"); // (lastIndexOf and multi-character indexOf cost more than the rest here)
    const top = this.top;
    if (top.kind === "text") {
      if (top.pos !== at || lt !== -1) return false;
      top.value.push(chunk);
      top.pos = this.length;
      this.refreshText(top.value.view());
      return true;
    }
    const m = top.machine;
    const st = m.state;
    if (st.pos !== at) return false;
    if (st.kind === "between" ? lt !== -1 : st.kind === "raw" && (st.after !== null || st.cand !== null)) return false;
    if (st.kind !== "between" && lt !== -1 && mayHoldTag(chunk, lt, st.close)) return false;
    st.pos = this.length;
    if (st.kind !== "between") {
      st.value.push(chunk);
      m.params[st.name] = st.value.view();
    }
    return true;
  }

  private run(): void {
    for (;;) {
      const top = this.top;
      if (top.kind === "text") {
        if (!this.runText(top)) return;
        continue;
      }
      const after = this.runTool(top.machine, this.scan.end);
      if (after === -1) return;
      top.block.params = top.machine.params;
      top.block.partial = false;
      this.open = null;
      this.top = { kind: "text", pos: after, value: new TrimmedValue() };
    }
  }

  /** Scans prose for a tool's opening tag; true when one opened. */
  private runText(top: { pos: number; value: TrimmedValue }): boolean {
    const s = this.scan;
    let from = top.pos;
    for (;;) {
      const lt = s.nextLt(from, s.end);
      const tool = lt === -1 ? undefined : s.tagAt(lt, this.grammar.openTags);
      if (lt === -1 || tool === PARTIAL) {
        const upto = lt === -1 ? s.end : lt;
        top.value.push(s.slice(top.pos, upto));
        top.pos = upto;
        return false;
      }
      if (tool === undefined) {
        from = lt + 1;
        continue;
      }
      top.value.push(s.slice(top.pos, lt));
      this.finishText(top.value.view());
      const block: ToolUse = { type: "tool_use", name: tool.name, params: {}, partial: true };
      this.out.push(block);
      this.open = block;
      const state: Between = { kind: "between", pos: lt + tool.open.length };
      this.top = { kind: "tool", block, machine: { tool, params: block.params, state } };
      return true;
    }
  }

  private finishText(content: string): void {
    const open = this.open;
    if (content === "") {
      if (open) this.out.pop();
    } else if (open?.type === "text") {
      open.content = content;
      open.partial = false;
    } else {
      this.out.push({ type: "text", content, partial: false });
    }
    this.open = null;
  }

  /**
   * Runs `m` over the text before `limit` (a `<` that an enclosing raw state has yet to judge, or the
   * end): returns the offset after `</tool>` once it closes, or -1 when it needs more text.
   */
  private runTool(m: ToolMachine, limit: number): number {
    const s = this.scan;
    for (;;) {
      const st = m.state;
      if (st.kind === "between") {
        const lt = s.nextLt(st.pos, limit);
        if (lt === -1) {
          st.pos = Math.max(st.pos, limit);
          return -1;
        }
        const tag = s.tagAt(lt, m.tool.bodyTags);
        if (tag === PARTIAL) {
          st.pos = lt;
          return -1;
        }
        if (tag === undefined) {
          st.pos = lt + 1;
          continue;
        }
        if (tag.kind === "close") return lt + tag.tag.length;
        const pos = lt + tag.tag.length;
        m.state = tag.raw
          ? { kind: "raw", pos, name: tag.name, close: tag.close, value: new RawValue(), cand: null, snapshot: { ...m.params }, after: null }
          : { kind: "param", pos, name: tag.name, close: tag.close, value: new TrimmedValue() };
      } else if (st.kind === "param") {
        const at = s.find(st.pos, limit, st.close);
        if (at === -1) {
          st.value.push(s.slice(st.pos, s.safe));
          st.pos = s.safe; // find() never sets safe before `from`
          return -1;
        }
        st.value.push(s.slice(st.pos, at));
        m.params[st.name] = st.value.view();
        m.state = { kind: "between", pos: at + st.close.length };
      } else if (!this.runRaw(m, st, limit)) {
        return -1;
      }
    }
  }

  /** Advances a raw parameter; true when `m.state` has moved on from it, false when it needs more text. */
  private runRaw(m: ToolMachine, st: RawState, limit: number): boolean {
    const s = this.scan;
    for (;;) {
      if (st.cand !== null) {
        const next = s.skipWs(st.pos);
        st.cand += s.slice(st.pos, next);
        st.pos = next;
        const follower = next === s.end ? PARTIAL : s.tagAt(next, m.tool.bodyTags);
        if (follower === PARTIAL) return false; // pending: what follows may still confirm it
        const seen = st.close + st.cand;
        st.cand = null;
        if (follower === undefined) {
          (st.after ? st.after.since : st.value).push(seen);
          continue;
        }
        if (st.after) st.value.absorb(st.after.since);
        if (follower.kind === "close") {
          // m.params still holds just the snapshot's keys (and S): bodies write to their own params.
          m.params[st.name] = st.value.view();
          m.state = { kind: "between", pos: next };
          return true;
        }
        const since = new RawValue();
        since.push(seen);
        const params = { ...st.snapshot, [st.name]: st.value.view() };
        st.after = { since, body: { tool: m.tool, params, state: { kind: "between", pos: next } } };
      } else if (st.after === null) {
        const at = s.find(st.pos, limit, st.close);
        if (at === -1) {
          st.value.push(s.slice(st.pos, s.safe));
          st.pos = s.safe; // find() never sets safe before `from`
          return false;
        }
        st.value.push(s.slice(st.pos, at));
        st.pos = at + st.close.length;
        st.cand = "";
      } else {
        const { since, body } = st.after;
        const at = s.find(st.pos, limit, st.close, m.tool.close);
        const upto = at === -1 ? s.safe : at;
        since.push(s.slice(st.pos, upto));
        st.pos = upto;
        if (this.runTool(body, upto) !== -1) throw new Error("assistant-message parser: a tool body closed before its end tag");
        if (at === -1) return false;
        if (s.startsWith(st.close, at)) {
          st.pos = at + st.close.length;
          st.cand = "";
          continue;
        }
        // The first </tool> since the value's first confirmed close: the value is settled.
        m.params = body.params;
        m.state = body.state;
        return true;
      }
    }
  }

  /**
   * The parameter of the open tool call whose value is not settled, if any: its closing tag has
   * not arrived, or (a raw value) the tool's own closing tag has not, which may still extend it.
   * Once the answer has ended, that value may be cut short.
   */
  unclosedParam(): string | undefined {
    if (this.top.kind !== "tool") return undefined;
    const st = this.top.machine.state;
    return st.kind === "between" ? undefined : st.name;
  }

  /** Brings the open block up to date with the text that has arrived. */
  private refresh(): void {
    const top = this.top;
    if (top.kind === "tool") {
      top.block.params = this.viewParams(top.machine);
      return;
    }
    this.refreshText(top.value.view(this.scan.tail(top.pos)));
  }

  /** Shows `content` as the open text block (none when it is empty). */
  private refreshText(content: string): void {
    const open = this.open as TextContent | null;
    if (content === "") {
      if (open) this.out.pop();
      this.open = null;
    } else if (open) {
      open.content = content;
    } else {
      const block: TextContent = { type: "text", content, partial: true };
      this.out.push(block);
      this.open = block;
    }
  }

  private viewParams(m: ToolMachine): Record<string, string> {
    const st = m.state;
    if (st.kind === "between") return m.params;
    if (st.kind === "param") {
      m.params[st.name] = st.value.view(this.scan.tail(st.pos));
      return m.params;
    }
    if (st.after === null) {
      m.params[st.name] = st.cand === null ? st.value.view(this.scan.tail(st.pos)) : st.value.view();
      return m.params;
    }
    if (st.cand !== null) return { ...st.snapshot, [st.name]: st.value.viewJoined(st.after.since) };
    return this.viewParams(st.after.body);
  }

  /** The earliest offset any state still needs to see. */
  private keepFrom(): number {
    const top = this.top;
    if (top.kind === "text") return top.pos;
    let m: ToolMachine = top.machine;
    let from = Infinity;
    for (;;) {
      const st = m.state;
      from = Math.min(from, st.pos);
      if (st.kind !== "raw" || st.after === null) return from;
      m = st.after.body;
    }
  }
}

/** Whether `chunk` contains the closing tag `tag`, or ends with the start of it; `lt` is its first `<`. */
function mayHoldTag(chunk: string, lt: number, tag: string): boolean {
  for (; lt !== -1; lt = chunk.indexOf("<", lt + 1)) {
    if (lt + 1 < chunk.length && chunk.charCodeAt(lt + 1) !== SLASH) continue; // `a < b`, `Array<T>`, `<div>`
    if (chunk.length - lt >= tag.length ? chunk.startsWith(tag, lt) : tag.startsWith(chunk.slice(lt))) return true;
  }
  return false;
}

const SLASH = 0x2f;
