/**
 * The only file that touches mvdan-sh (through shell-parser-library.ts, a lazy file of the
 * bundles): mvdan/sh's Bash parser (the parser behind shfmt) compiled to JavaScript by GopherJS.
 * It is synchronous, so the whole policy is. (sh-syntax, the WASM build, returns JSON whose
 * commands are empty position stubs: no use for this.)
 *
 * Reading the tree through GopherJS's JavaScript wrappers costs 50-200 µs per field, which made
 * one evaluation take ~10 ms. So this file reads the Go values underneath instead: structs are
 * objects with their fields as properties, slices are {$array, $offset, $length}, strings hold
 * UTF-8 bytes, nil pointers are their type's `nil` object. mvdan-sh is pinned (0.10.1) and
 * `assertLayout` checks these facts on first use, so a different build fails loudly.
 */
import { mvdanSh, type ShParser } from "./shell-parser-library";

/** A syntax node: a Go pointer to a mvdan/sh syntax struct. */
export interface ShNode {
  readonly [field: string]: unknown;
}

interface GoPos {
  Offset(): number;
}

let parser: ShParser | undefined;

/**
 * GopherJS sets Error.stackTraceLimit to Infinity when loaded and relies on full stacks while it
 * runs (its panic/recover counts frames). It gets them only while it runs; the extension host
 * gets V8's usual limit back.
 */
if (Error.stackTraceLimit === Infinity) Error.stackTraceLimit = 10;

export function withGopherStacks<T>(work: () => T): T {
  const saved = Error.stackTraceLimit;
  Error.stackTraceLimit = Infinity;
  try {
    return work();
  } finally {
    Error.stackTraceLimit = saved;
  }
}

export class ShellSyntaxError extends Error {
  override readonly name = "ShellSyntaxError";
}

/** Parses Bash source; a syntax error becomes a ShellSyntaxError with the parser's message. */
export function parseBash(source: string): ShNode {
  if (parser === undefined) {
    parser = mvdanSh.syntax.NewParser();
    assertLayout(parser);
  }
  let wrapped;
  try {
    wrapped = parser.Parse(source, "");
  } catch (error) {
    throw new ShellSyntaxError(parseErrorMessage(error));
  }
  const file = wrapped.__internal_object__;
  if (!isNode(file)) throw new Error("mvdan-sh returned something that is not a syntax tree");
  return file;
}

// mvdan/sh's ParseError arrives as a wrapped Go value with an Error() method, not a JS Error.
function parseErrorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === "object" && error !== null && "Error" in error && typeof error.Error === "function") {
    return String((error.Error as () => unknown).call(error));
  }
  return String(error);
}

/** The node's Go type without package: "CallExpr", "Stmt", ... */
export function nodeType(node: ShNode): string {
  return goTypeName(node).replace(/^\*syntax\./, "");
}

/** Visits every node under `root` (not `root` itself) in field order; return false to skip a node's children. */
export function walk(root: ShNode, visit: (node: ShNode) => boolean): void {
  for (const key of Object.keys(root)) {
    if (key === "$val") continue;
    const value = root[key];
    const nodes = isNode(value) ? [value] : isSlice(value) ? sliceItems(value).filter(isNode) : [];
    for (const node of nodes) if (visit(node)) walk(node, visit);
  }
}

export function child(node: ShNode, field: string): ShNode | null {
  const value = node[field];
  return isNode(value) ? value : null;
}

export function children(node: ShNode, field: string): ShNode[] {
  const value = node[field];
  return isSlice(value) ? sliceItems(value).filter(isNode) : [];
}

/** A string field, decoded from the UTF-8 bytes GopherJS keeps. */
export function text(node: ShNode, field: string): string {
  const value = node[field];
  if (typeof value !== "string") return "";
  return isAscii(value) ? value : Buffer.from(value, "latin1").toString("utf8");
}

function isAscii(value: string): boolean {
  for (let i = 0; i < value.length; i++) if (value.charCodeAt(i) > 0x7f) return false;
  return true;
}

export function flag(node: ShNode, field: string): boolean {
  return node[field] === true;
}

/** True when a pointer field is set (for fields that are not syntax nodes, like ParamExp.Exp). */
export function isSet(node: ShNode, field: string): boolean {
  const value = node[field];
  return typeof value === "object" && value !== null && value !== nilOf(value) && goTypeName(value) !== "";
}

/** Operators of `${x<op>word}`, in the order `calibrateOperators` writes them. */
const EXPANSION_OPERATORS = ["+", ":+", "-", ":-", "?", ":?", "=", ":=", "%", "%%", "#", "##", "^", "^^", ",", ",,", "@"] as const;
export type ExpansionOperator = (typeof EXPANSION_OPERATORS)[number];
let operatorCodes: Map<number, ExpansionOperator> | undefined;

/**
 * The operator of a ParamExp (`=` for `${x=v}`, `@` for `${x@P}`), or null without one. mvdan/sh
 * keeps it as a token number: the numbers are read once from a parse of every operator.
 */
export function expansionOperator(paramExp: ShNode): ExpansionOperator | null {
  if (!isSet(paramExp, "Exp")) return null;
  operatorCodes ??= calibrateOperators();
  const op = (paramExp.Exp as { Op?: unknown }).Op;
  return typeof op === "number" ? (operatorCodes.get(op) ?? null) : null;
}

function calibrateOperators(): Map<number, ExpansionOperator> {
  // `@` takes a transformation letter: Q is a harmless one.
  const source = EXPANSION_OPERATORS.map((op) => `\${x${op}${op === "@" ? "Q" : "y"}}`).join(" ");
  const codes = new Map<number, ExpansionOperator>();
  const found: ShNode[] = [];
  walk(parseBash(`echo ${source}`), (node) => (nodeType(node) === "ParamExp" ? (found.push(node), false) : true));
  found.forEach((node, i) => {
    const op = (node.Exp as { Op?: unknown } | undefined)?.Op;
    const name = EXPANSION_OPERATORS[i];
    if (typeof op === "number" && name !== undefined) codes.set(op, name);
  });
  if (codes.size !== EXPANSION_OPERATORS.length) throw new Error("mvdan-sh's expansion operators are not the ones this policy was written for (pin mvdan-sh 0.10.1)");
  return codes;
}

/** Byte offsets of the node's start and end in the source. */
export function offsets(node: ShNode): { start: number; end: number } {
  return { start: callPos(node, "Pos"), end: callPos(node, "End") };
}

export function fieldOffset(node: ShNode, field: string): number | null {
  const value = node[field] as Partial<GoPos> | undefined;
  return typeof value?.Offset === "function" ? Number(value.Offset()) : null;
}

function callPos(node: ShNode, method: "Pos" | "End"): number {
  const fn = node[method];
  if (typeof fn !== "function") throw new Error(`mvdan-sh node ${goTypeName(node)} has no ${method}()`);
  return Number((fn.call(node) as GoPos).Offset());
}

function goTypeName(value: object): string {
  const ctor = (value as { constructor?: { string?: unknown } }).constructor;
  return typeof ctor?.string === "string" ? ctor.string : "";
}

function nilOf(value: object): unknown {
  return (value as { constructor?: { nil?: unknown } }).constructor?.nil;
}

function isNode(value: unknown): value is ShNode {
  return typeof value === "object" && value !== null && goTypeName(value).startsWith("*syntax.") && value !== nilOf(value);
}

interface GoSlice {
  readonly $array: ArrayLike<unknown>;
  readonly $offset: number;
  readonly $length: number;
}

function isSlice(value: unknown): value is GoSlice {
  return typeof value === "object" && value !== null && "$array" in value && typeof (value as GoSlice).$length === "number";
}

function sliceItems(slice: GoSlice): unknown[] {
  return Array.prototype.slice.call(slice.$array, slice.$offset, slice.$offset + slice.$length) as unknown[];
}

/** Checks the Go value layout this file relies on, against a known input. */
function assertLayout(p: ShParser): void {
  const file = p.Parse('é; x "$(y)"', "").__internal_object__;
  const stmts = isNode(file) ? children(file, "Stmts") : [];
  const first = stmts[0] ? child(stmts[0], "Cmd") : null;
  const word = first ? children(first, "Args")[0] : undefined;
  const lit = word ? children(word, "Parts")[0] : undefined;
  const second = stmts[1];
  const ok =
    stmts.length === 2 &&
    first !== null && nodeType(first) === "CallExpr" &&
    lit !== undefined && text(lit, "Value") === "é" &&
    second !== undefined && offsets(second).start === 4 && offsets(second).end === 12;
  if (!ok) throw new Error("mvdan-sh's internal layout is not the one this policy was written for (pin mvdan-sh 0.10.1)");
}
