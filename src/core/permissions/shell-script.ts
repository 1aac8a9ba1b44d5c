/**
 * A command line as the policy sees it: plain data, independent of the parser that produced it.
 */

/** One piece of a shell word after quote removal. */
export type WordPart =
  /** Literal text; `quoted` text is never subject to tilde expansion or globbing. */
  | { readonly kind: "text"; readonly value: string; readonly quoted: boolean }
  /**
   * `$NAME` or `${NAME}`; `plain` is false when the expansion has an operator (`${X:-y}`, `${#X}`).
   * `quoted` when inside double quotes (no word splitting of its value).
   */
  | { readonly kind: "param"; readonly name: string; readonly plain: boolean; readonly quoted: boolean }
  /** Anything whose value is only known at run time: `$( )`, backticks, `<( )`, `$(( ))`, sequences. */
  | { readonly kind: "dynamic" };

/** One argument after brace expansion (`a{b,c}` gives two). `raw` is the word as written. */
export interface ShellArg {
  readonly raw: string;
  readonly parts: readonly WordPart[];
}

/** A `cd`/`pushd` run earlier in the same shell, so later relative paths resolve against it. */
export type CdStep =
  | { readonly kind: "to"; readonly target: ShellArg }
  | { readonly kind: "home" }
  /** `cd -`, `popd`, a dynamic target: from here on the working folder is unknown. */
  | { readonly kind: "unknown" };

export interface Redirection {
  /** The operator as written: `>`, `>>`, `&>`, `>|`, `<`, `<<`, `>&`, ... */
  readonly op: string;
  /** The file descriptor written before the operator (`2` in `2>&1`), if any. */
  readonly fd: string | null;
  readonly target: ShellArg;
  /** A here-document's body (`<<EOF`), or null. */
  readonly heredoc: ShellArg | null;
  readonly text: string;
  readonly cd: readonly CdStep[];
}

/** `NAME=value` before a command, on its own, or after `export`/`declare`/`local`. */
export interface Assignment {
  readonly name: string;
  /** The value after quote removal and variables known on the line; null for arrays and `+=`. */
  readonly value: ShellArg | null;
}

export type CommandKind =
  /** An ordinary command (`ls -la`); also a bare assignment (`X=1`, with no args). */
  | "call"
  /** `declare`, `export`, `local`, `readonly`, `typeset`: args[0] is the keyword. */
  | "declare"
  /** `[[ ... ]]`: args is just `[[`. */
  | "test"
  /** `(( ... ))` and `let`. */
  | "arithmetic";

export interface SimpleCommand {
  readonly kind: CommandKind;
  /** The command as written, including its own redirections. */
  readonly text: string;
  readonly args: readonly ShellArg[];
  /** Prefix assignments (`LANG=C ls`), by name. */
  readonly assigns: readonly string[];
  /** Every assignment this command makes: prefix ones, bare `X=1`, `export X=1`. */
  readonly assignments: readonly Assignment[];
  /** Redirections written on this command itself. */
  readonly redirections: readonly Redirection[];
  /** Commands run by substitutions inside this command's words or redirections. */
  readonly nested: readonly SimpleCommand[];
  /** True when this command itself runs inside `$( )`, backticks or `<( )`. */
  readonly inSubstitution: boolean;
  /** Piped (`a | b`) or sent to the background (`a &`), counted within the enclosing function. */
  readonly piped: boolean;
  readonly background: boolean;
  /** Names of the functions whose bodies contain this command, outermost first. */
  readonly functions: readonly string[];
  readonly cd: readonly CdStep[];
}

/** `a | b | c`: every simple command of each stage, nested ones included. */
export interface Pipeline {
  readonly stages: readonly (readonly SimpleCommand[])[];
}

export interface ParsedScript {
  /** Every simple command, in the order they would start (substitutions before their command). */
  readonly commands: readonly SimpleCommand[];
  /** Every redirection, on simple and compound commands alike. */
  readonly redirections: readonly Redirection[];
  readonly pipelines: readonly Pipeline[];
  readonly functionNames: readonly string[];
  /** A `$( )`, backticks, `<( )` or `>( )` anywhere. */
  readonly hasSubstitution: boolean;
  /** Constructs the policy does not judge (`coproc`), by name. */
  readonly unsupported: readonly string[];
  /** Expansions that run or assign code, and constructs other shells read differently. */
  readonly features: ReadonlySet<ShellFeature>;
  /** Endless loops that keep starting background jobs (`while :; do x & done`), as written. */
  readonly forkLoops: readonly string[];
}

export type ShellFeature =
  /** `${x@P}`: the value is expanded as a prompt, which runs any `$( )` in it. */
  | "prompt-expansion"
  /** `${x=v}`, `${x:=v}`: an expansion that assigns. */
  | "assigning-expansion"
  /** `${!x}`: the value names another variable, whose array subscript bash evaluates. */
  | "indirect-expansion"
  /** `*(…)`, `@(…)`: extended globs in bash, glob qualifiers that can run code in zsh. */
  | "extglob"
  /**
   * `'a[$(cmd)]'` as text: bash evaluates array subscripts in `test -v`, `[[ -eq ]]`, `$(( ))`,
   * `printf -v`, and runs the `$( )` in them.
   */
  | "subscript-code";
