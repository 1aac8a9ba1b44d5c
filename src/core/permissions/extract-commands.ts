/**
 * Walks mvdan/sh's syntax tree and lists every simple command it would run: through `;`, `&&`,
 * `||`, pipes, `( )`, `{ }`, if/for/while/case bodies, function bodies, and every `$( )`, backtick
 * and `<( )` wherever it sits (inside double quotes, arguments, assignments, redirections,
 * here-documents, arithmetic). It also follows `cd` so later relative paths can be resolved.
 */
import { convertHeredoc, convertValue, convertWord } from "./convert-word";
import { isEndlessLoop } from "./endless-loop";
import { afterCommand, assignedValue, forgetAll, forgetAssignedIn, substituteVars, type LineVars } from "./line-variables";
import { staticText } from "./resolve-words";
import type { Assignment, CdStep, ParsedScript, Pipeline, Redirection, ShellArg, ShellFeature, SimpleCommand } from "./shell-script";
import { child, children, expansionOperator, fieldOffset, flag, isSet, nodeType, offsets, text, walk, type ShNode } from "./sh-nodes";
import type { SourceText } from "./source-text";

interface Context {
  readonly inSubstitution: boolean;
  readonly piped: boolean;
  readonly background: boolean;
  readonly functions: readonly string[];
  /** Inside a branch, loop or `&&`/`||` right side: it may not run, so what it assigns is unknown. */
  readonly conditional: boolean;
}

/** The state one shell process carries from command to command. Subshells get a copy. */
interface Scope {
  cd: CdStep[];
  vars: LineVars;
}

const TOP: Context = { inSubstitution: false, piped: false, background: false, functions: [], conditional: false };
const REDIRECT_OPERATOR = /^(&>>|&>|>>|>\||>&|<<<|<<-|<<|<>|<&|>|<)/;

export function extractCommands(file: ShNode, source: SourceText): ParsedScript {
  const extractor = new Extractor(source);
  extractor.statements(children(file, "Stmts"), TOP, { cd: [], vars: new Map() });
  // A construct the extractor does not descend into would hide its commands: count them all
  // with a blind walk of the tree and never let a difference pass.
  let callExprs = 0;
  walk(file, (node) => {
    if (nodeType(node) === "CallExpr") callExprs++;
    const feature = featureOf(node);
    if (feature) extractor.features.add(feature);
    return true;
  });
  if (callExprs !== extractor.callExprs) extractor.unsupported.push("a construct the policy does not understand");
  return extractor;
}

class Extractor implements ParsedScript {
  readonly commands: SimpleCommand[] = [];
  readonly redirections: Redirection[] = [];
  readonly pipelines: Pipeline[] = [];
  readonly functionNames: string[] = [];
  readonly unsupported: string[] = [];
  readonly features = new Set<ShellFeature>();
  readonly forkLoops: string[] = [];
  hasSubstitution = false;
  callExprs = 0;

  constructor(private readonly source: SourceText) {}

  statements(stmts: ShNode[], ctx: Context, scope: Scope): SimpleCommand[] {
    return stmts.flatMap((stmt) => this.statement(stmt, ctx, scope));
  }

  private statement(stmt: ShNode, outer: Context, outerScope: Scope): SimpleCommand[] {
    const background = flag(stmt, "Background") || flag(stmt, "Coprocess");
    const ctx = background ? { ...outer, background: true } : outer;
    const scope = background ? copy(outerScope) : outerScope;
    const nested: SimpleCommand[] = [];
    const redirections = children(stmt, "Redirs").map((r) => this.redirection(r, ctx, scope, nested));
    this.redirections.push(...redirections);
    const cmd = child(stmt, "Cmd");
    if (cmd === null || nodeType(cmd) === "CallExpr") {
      return [...nested, this.callExpr(cmd, stmt, { ctx, scope, redirections, nested })];
    }
    return [...nested, ...this.compound(cmd, ctx, scope)];
  }

  private compound(cmd: ShNode, ctx: Context, scope: Scope): SimpleCommand[] {
    const type = nodeType(cmd);
    switch (type) {
      case "BinaryCmd":
        return this.binary(cmd, ctx, scope);
      case "Block":
        return this.statements(children(cmd, "Stmts"), ctx, scope);
      case "Subshell":
        return this.statements(children(cmd, "Stmts"), ctx, copy(scope));
      case "IfClause":
        return this.ifClause(cmd, ctx, scope, false);
      case "WhileClause":
      case "ForClause":
        return this.loop(cmd, ctx, scope);
      case "CaseClause":
        return this.caseClause(cmd, { ...ctx, conditional: true }, scope);
      case "FuncDecl":
        return this.funcDecl(cmd, ctx, scope);
      case "TimeClause": {
        const inner = child(cmd, "Stmt");
        return inner ? this.statement(inner, ctx, scope) : [];
      }
      case "CoprocClause": {
        this.unsupported.push("coproc");
        const inner = child(cmd, "Stmt");
        return inner ? this.statement(inner, { ...ctx, background: true }, copy(scope)) : [];
      }
      case "ArithmCmd":
        return this.pseudo(cmd, "arithmetic", "((", ctx, scope);
      case "LetClause":
        return this.pseudo(cmd, "arithmetic", "let", ctx, scope);
      case "TestClause":
        return this.pseudo(cmd, "test", "[[", ctx, scope);
      case "DeclClause":
        return this.declClause(cmd, ctx, scope);
      default:
        this.unsupported.push(type);
        return this.substitutions(cmd, ctx, scope);
    }
  }

  private binary(cmd: ShNode, ctx: Context, scope: Scope): SimpleCommand[] {
    if (!isPipe(cmd, this.source)) {
      // `&&` and `||` run in the same shell, one after the other; the second maybe not at all.
      const x = child(cmd, "X");
      const y = child(cmd, "Y");
      return [...(x ? this.statement(x, ctx, scope) : []), ...(y ? this.statement(y, { ...ctx, conditional: true }, scope) : [])];
    }
    // Every stage of a pipeline runs in its own subshell.
    const stages = pipelineStages(cmd, this.source).map((stage) => this.statement(stage, { ...ctx, piped: true }, copy(scope)));
    this.pipelines.push({ stages });
    return stages.flat();
  }

  /** Only the first condition surely runs. */
  private ifClause(cmd: ShNode, ctx: Context, scope: Scope, inElse: boolean): SimpleCommand[] {
    const branch = { ...ctx, conditional: true };
    const own = [...this.statements(children(cmd, "Cond"), inElse ? branch : ctx, scope), ...this.statements(children(cmd, "Then"), branch, scope)];
    const otherwise = child(cmd, "Else");
    return otherwise ? [...own, ...this.ifClause(otherwise, ctx, scope, true)] : own;
  }

  /** A loop's body may run any number of times: what it assigns is unknown from the start. */
  private loop(cmd: ShNode, ctx: Context, scope: Scope): SimpleCommand[] {
    forgetAssignedIn(cmd, scope.vars);
    const inner = { ...ctx, conditional: true };
    const header = child(cmd, "Loop");
    const found = [
      ...(header ? this.substitutions(header, inner, scope) : []),
      ...this.statements(children(cmd, "Cond"), inner, scope),
      ...this.statements(children(cmd, "Do"), inner, scope),
    ];
    // A loop that never ends and sends a job to the background each time is a fork bomb.
    const forks = !ctx.background && found.some((c) => c.background && !c.functions.some((f) => !ctx.functions.includes(f)));
    if (forks && isEndlessLoop(cmd)) this.forkLoops.push(this.source.of(cmd));
    return found;
  }

  private caseClause(cmd: ShNode, ctx: Context, scope: Scope): SimpleCommand[] {
    const subject = child(cmd, "Word");
    const out = subject ? this.substitutions(subject, ctx, scope) : [];
    for (const item of children(cmd, "Items")) {
      for (const pattern of children(item, "Patterns")) out.push(...this.substitutions(pattern, ctx, scope));
      out.push(...this.statements(children(item, "Stmts"), ctx, scope));
    }
    return out;
  }

  private funcDecl(cmd: ShNode, ctx: Context, scope: Scope): SimpleCommand[] {
    const nameNode = child(cmd, "Name");
    const name = nameNode ? text(nameNode, "Value") : "";
    this.functionNames.push(name);
    const body = child(cmd, "Body");
    // Pipes and `&` count from the function body, so a self-call that forks is visible.
    const inner: Context = { inSubstitution: ctx.inSubstitution, piped: false, background: false, functions: [...ctx.functions, name], conditional: true };
    // Calling the function later assigns what its body assigns.
    if (body) forgetAssignedIn(body, scope.vars);
    return body ? this.statement(body, inner, copy(scope)) : [];
  }

  private declClause(cmd: ShNode, ctx: Context, scope: Scope): SimpleCommand[] {
    const variant = child(cmd, "Variant");
    const keyword = variant ? text(variant, "Value") : "declare";
    const nested = this.substitutions(cmd, ctx, scope);
    const args: ShellArg[] = [literal(keyword)];
    const assignments: Assignment[] = [];
    for (const assign of children(cmd, "Args")) {
      const value = child(assign, "Value");
      if (flag(assign, "Naked") && value) args.push(...substituteVars(convertWord(value, this.source), scope.vars));
      else {
        args.push(literal(this.source.of(assign)));
        assignments.push(this.assignment(assign, scope));
      }
    }
    const options = args.slice(1).map(staticText);
    // `declare -i x=…` evaluates, `declare -n` makes a reference, `declare "$x"` assigns who knows what.
    if (options.some((o) => o === null)) forgetAll(scope.vars);
    const certain = !options.some((o) => o?.startsWith("-") || o?.startsWith("+"));
    this.assignAll(assignments, certain, ctx, scope);
    return [...nested, this.record({ kind: "declare", text: this.source.of(cmd), args, assigns: [], assignments, redirections: [], nested }, ctx, scope)];
  }

  private pseudo(cmd: ShNode, kind: "arithmetic" | "test", keyword: string, ctx: Context, scope: Scope): SimpleCommand[] {
    const nested = this.substitutions(cmd, ctx, scope);
    const args = [literal(keyword)];
    return [...nested, this.record({ kind, text: this.source.of(cmd), args, assigns: [], assignments: [], redirections: [], nested }, ctx, scope)];
  }

  private callExpr(cmd: ShNode | null, stmt: ShNode, own: { ctx: Context; scope: Scope; redirections: Redirection[]; nested: SimpleCommand[] }): SimpleCommand {
    const { ctx, scope } = own;
    const nested = [...own.nested];
    const assignments: Assignment[] = [];
    const args: ShellArg[] = [];
    if (cmd !== null) {
      this.callExprs++;
      // Words expand before the prefix assignments take effect (`x=rm $x` sees the old x).
      for (const word of children(cmd, "Args")) {
        nested.push(...this.substitutions(word, ctx, scope));
        args.push(...substituteVars(convertWord(word, this.source), scope.vars));
      }
      for (const assign of children(cmd, "Assigns")) {
        nested.push(...this.substitutions(assign, ctx, scope));
        const assignment = this.assignment(assign, scope);
        assignments.push(assignment);
        // `X=1` on its own stays for the rest of the line; `X=1 cmd` only for cmd.
        if (args.length === 0) this.assignAll([assignment], !flag(assign, "Append") && !child(assign, "Index"), ctx, scope);
      }
    }
    // The command as written with its own redirections, without the `;` or `&` that follows.
    const ends = [cmd, ...children(stmt, "Redirs")].flatMap((n) => (n ? [offsets(n).end] : []));
    const written = this.source.slice(offsets(stmt).start, ends.length > 0 ? Math.max(...ends) : offsets(stmt).end);
    const assigns = assignments.map((a) => a.name);
    const command = this.record({ kind: "call", text: written, args, assigns, assignments, redirections: own.redirections, nested }, ctx, scope);
    const step = cdStep(args);
    if (step) scope.cd.push(step);
    afterCommand(args.map(staticText), scope.vars);
    return command;
  }

  private assignment(assign: ShNode, scope: Scope): Assignment {
    const nameNode = child(assign, "Name");
    const value = child(assign, "Value");
    const plain = !flag(assign, "Append") && !child(assign, "Array");
    const converted = value ? convertValue(value, this.source) : { raw: "", parts: [{ kind: "text" as const, value: "", quoted: true }] };
    return { name: nameNode ? text(nameNode, "Value") : "", value: plain ? assignedValue(converted, scope.vars) : null };
  }

  /** Records assignments that stay in this shell: known values only where they surely happen. */
  private assignAll(assignments: readonly Assignment[], certain: boolean, ctx: Context, scope: Scope): void {
    for (const { name, value } of assignments) scope.vars.set(name, certain && !ctx.conditional ? value : null);
  }

  private record(
    fields: Pick<SimpleCommand, "kind" | "text" | "args" | "assigns" | "assignments" | "redirections" | "nested">,
    ctx: Context,
    scope: Scope,
  ): SimpleCommand {
    const command: SimpleCommand = { ...fields, ...ctx, cd: [...scope.cd] };
    this.commands.push(command);
    return command;
  }

  private redirection(redirect: ShNode, ctx: Context, scope: Scope, nested: SimpleCommand[]): Redirection {
    const word = child(redirect, "Word");
    const hdoc = child(redirect, "Hdoc");
    if (word) nested.push(...this.substitutions(word, ctx, scope));
    if (hdoc) nested.push(...this.substitutions(hdoc, ctx, scope));
    const variants = word ? substituteVars(convertWord(word, this.source), scope.vars) : [];
    const fd = child(redirect, "N");
    const opAt = fieldOffset(redirect, "OpPos");
    const op = opAt === null ? "" : (REDIRECT_OPERATOR.exec(this.source.slice(opAt, opAt + 3))?.[1] ?? "");
    return {
      op,
      fd: fd ? text(fd, "Value") : null,
      // `> {a,b}` is an error in Bash; an expanding target is simply unknown.
      target: variants.length === 1 && variants[0] ? variants[0] : { raw: word ? this.source.of(word) : "", parts: [{ kind: "dynamic" }] },
      heredoc: hdoc ? convertHeredoc(hdoc, this.source) : null,
      text: this.source.of(redirect),
      cd: [...scope.cd],
    };
  }

  /** Commands inside every `$( )`, backtick and process substitution under `node`. */
  private substitutions(node: ShNode, ctx: Context, scope: Scope): SimpleCommand[] {
    const found: SimpleCommand[] = [];
    walk(node, (inner) => {
      const type = nodeType(inner);
      if (type !== "CmdSubst" && type !== "ProcSubst") return true;
      this.hasSubstitution = true;
      found.push(...this.statements(children(inner, "Stmts"), { ...ctx, inSubstitution: true }, copy(scope)));
      return false;
    });
    return found;
  }
}

function copy(scope: Scope): Scope {
  return { cd: [...scope.cd], vars: new Map(scope.vars) };
}

/** An array subscript holding a substitution, as plain text: `a[$(cmd)]`, ``a[`cmd`]``. */
const SUBSCRIPT_CODE = /\[[^\]]*\\?(\$\(|`)/;

/** What a node adds to ParsedScript.features, if anything. */
function featureOf(node: ShNode): ShellFeature | null {
  const type = nodeType(node);
  if (type === "ExtGlob") return "extglob";
  if ((type === "Lit" || type === "SglQuoted") && SUBSCRIPT_CODE.test(text(node, "Value"))) return "subscript-code";
  if (type !== "ParamExp") return null;
  const op = expansionOperator(node);
  if (op === "=" || op === ":=") return "assigning-expansion";
  const word = op === "@" ? child(node.Exp as ShNode, "Word") : null;
  if (word && /P/.test(staticWordText(word))) return "prompt-expansion";
  // `${!x}`; `${!prefix*}` and `${!array[@]}` only list names and keys.
  if (flag(node, "Excl") && !node.Names && !isSet(node, "Index")) return "indirect-expansion";
  return null;
}

function staticWordText(word: ShNode): string {
  return children(word, "Parts").map((p) => (nodeType(p) === "Lit" ? text(p, "Value") : "")).join("");
}

function literal(value: string): ShellArg {
  return { raw: value, parts: [{ kind: "text", value, quoted: false }] };
}

function isPipe(cmd: ShNode, source: SourceText): boolean {
  const at = fieldOffset(cmd, "OpPos");
  if (at === null) return false;
  const op = source.slice(at, at + 2);
  return op === "|&" || op.startsWith("|") && op !== "||";
}

/** `a | b | c` parses as `(a | b) | c`: flatten it back into stages. */
function pipelineStages(cmd: ShNode, source: SourceText): ShNode[] {
  const stages: ShNode[] = [];
  for (const side of [child(cmd, "X"), child(cmd, "Y")]) {
    if (side === null) continue;
    const inner = child(side, "Cmd");
    const plain = !flag(side, "Negated") && !flag(side, "Background") && children(side, "Redirs").length === 0;
    if (plain && inner && nodeType(inner) === "BinaryCmd" && isPipe(inner, source)) stages.push(...pipelineStages(inner, source));
    else stages.push(side);
  }
  return stages;
}

function cdStep(args: readonly ShellArg[]): CdStep | null {
  const name = args[0] ? staticText(args[0]) : null;
  if (name === "popd") return { kind: "unknown" };
  if (name !== "cd" && name !== "pushd") return null;
  const operands = args.slice(1).filter((a) => {
    const t = staticText(a);
    return t === null || !/^-[LPe@]+$/.test(t);
  });
  const target = operands[0];
  if (target === undefined) return { kind: "home" };
  if (staticText(target) === "-") return { kind: "unknown" };
  return { kind: "to", target };
}
