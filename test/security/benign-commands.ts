/**
 * The benign side of the security corpus: everyday commands a coding agent runs all day, which
 * must keep running without a question when "execute safe commands" is on. A guard that asks about
 * these is a guard people switch off.
 *
 * Two realistic settings: the built-in allow list (reading files, searching, git's read commands),
 * and a project that added its build, test and package managers' read commands to
 * `tandem.commandAllowList` (the built-in list has none: they run project code).
 */
import { DEFAULT_ALLOW_LIST } from "../../src/core/permissions";

export type BenignProfile = "built-in list" | "project list";

export interface BenignCommand {
  readonly command: string;
  readonly profile: BenignProfile;
  /** Also run for real through the CLI (`--auto-approve command-safe`, the built-in list). */
  readonly runInCli?: true;
}

/** What a project adds to the built-in list for its own build and test commands. */
export const PROJECT_ALLOW_LIST: readonly string[] = [
  ...DEFAULT_ALLOW_LIST,
  "npm test", "npm run build", "npm run lint", "npm ls", "npm outdated", "npm --version", "npx tsc", "npx vitest run",
  "yarn test", "pnpm test", "pnpm list", "node --version", "make", "cargo build", "cargo test", "cargo tree",
  "go build", "go test", "go vet", "pytest", "python -m pytest", "pip list", "pip show", "mvn", "gradle test", "dotnet test",
];

const builtIn = (command: string, runInCli?: true): BenignCommand => ({ command, profile: "built-in list", ...(runInCli ? { runInCli } : {}) });
const project = (command: string): BenignCommand => ({ command, profile: "project list" });

/** `{ws}` stands for the workspace's absolute path. */
export const BENIGN_COMMANDS: readonly BenignCommand[] = [
  // Looking at workspace files.
  builtIn("ls", true),
  builtIn("ls -la src", true),
  builtIn("cat README.md", true),
  builtIn("cat package.json"),
  builtIn("head -n 20 src/index.ts"),
  builtIn("tail -n 5 src/util.ts"),
  builtIn("wc -l src/*.ts", true),
  builtIn("cat src/index.ts | grep export"),
  builtIn("ls src | wc -l"),
  builtIn("stat package.json"),
  builtIn("file src/index.ts"),
  builtIn("du -sh src"),
  builtIn("tree src"),
  builtIn("diff src/index.ts src/util.ts"),
  builtIn("sort names.txt | uniq -c"),
  builtIn("cut -d, -f2 data.csv | head -n 3"),
  builtIn("jq .scripts package.json"),
  builtIn("sed -n '1,20p' src/index.ts"),
  builtIn("cat {ws}/README.md"),
  builtIn("realpath src/index.ts"),
  builtIn("pwd"),
  builtIn("echo hello"),
  builtIn("cd src && ls"),
  builtIn("which node"),
  builtIn("cat ./README.md"),
  builtIn("cat ../ws/README.md"),
  builtIn("head -c 200 README.md"),
  builtIn("cut -c1-80 README.md"),
  builtIn("tr a-z A-Z < README.md"),
  builtIn("wc -l < README.md"),
  builtIn("sort < names.txt"),
  builtIn("cat package.json | jq .version"),
  builtIn("cat README.md 2>/dev/null || true"),
  builtIn("test -f package.json && echo yes"),
  builtIn("[ -d src ] && ls src"),
  builtIn("pwd && ls"),
  // Not `ls -d */`: in this workspace its glob matches the ignored private/, so it asks, by design.
  builtIn("ls -d src/*"),
  builtIn("du -sh ."),
  builtIn("tree -L 2 -I node_modules"),
  builtIn("find . -maxdepth 2 -type d"),
  builtIn("cat *.md"),
  builtIn("ls *.json"),
  builtIn("head -n 3 src/*.ts"),
  // Searching the workspace.
  builtIn('grep -rn "TODO" src', true),
  builtIn("grep -n export src/index.ts"),
  builtIn("grep -c '' src/index.ts src/util.ts 2>/dev/null"),
  builtIn("rg function src"),
  builtIn("rg -n --type ts import ."),
  builtIn('find . -name "*.ts" -not -path "./node_modules/*"'),
  builtIn("find src -type f"),
  builtIn("grep -rl import src | sort | uniq"),
  builtIn("grep -rn TODO . --include=*.ts"),
  builtIn("rg -l TODO | head"),
  builtIn("find . -name '*.ts' | xargs grep -l export"),
  // git's read commands.
  builtIn("git status", true),
  builtIn("git status --short"),
  builtIn("git diff"),
  builtIn("git diff --stat HEAD"),
  builtIn("git diff --name-only main...HEAD"),
  builtIn("git log --oneline -3", true),
  builtIn('git log --since="2 weeks ago" --oneline'),
  builtIn("git log -p -1 -- src/index.ts"),
  builtIn("git show HEAD --stat"),
  builtIn("git blame src/index.ts"),
  builtIn("git branch -a"),
  builtIn("git remote -v"),
  builtIn("git ls-files"),
  builtIn("git rev-parse HEAD"),
  builtIn("git grep -n TODO"),
  builtIn("git describe --tags --always"),
  builtIn("git stash list"),
  builtIn("git diff --cached"),
  builtIn("git show HEAD:README.md"),
  builtIn("git log --format='%h %s' -n 5"),
  builtIn("git log --oneline | head -20"),
  builtIn("git log --oneline -- src/index.ts"),
  builtIn("git rev-parse --abbrev-ref HEAD"),
  builtIn("git branch --show-current"),
  builtIn("git status --porcelain=v1"),
  builtIn("git ls-files | wc -l"),
  builtIn('git grep -n "TODO" -- src'),
  builtIn("git -C src status"),
  builtIn("git diff -- '*.ts'"),
  builtIn("git log --graph --oneline --all"),
  builtIn("rg -g '*.ts' TODO"),
  // The model is told to pass --no-pager (execute_command's description).
  builtIn("git --no-pager log --oneline -5"),
  builtIn("git --no-pager diff"),
  // Build, test and package managers' read commands, allowed by the project's list.
  project("npm test"),
  project("npm run build"),
  project("npm run lint"),
  project("npm ls --depth=0"),
  project("npm outdated"),
  project("npm --version"),
  project("node --version"),
  project("npx tsc --noEmit"),
  project("npx vitest run"),
  project("yarn test"),
  project("pnpm test"),
  project("pnpm list"),
  project("make"),
  project("make test"),
  project("cargo build"),
  project("cargo test"),
  project("cargo tree"),
  project("go build ./..."),
  project("go test ./..."),
  project("go vet ./..."),
  project("pytest -q"),
  project("python -m pytest tests/"),
  project("pip list"),
  project("pip show requests"),
  project("mvn -q test"),
  project("gradle test"),
  project("dotnet test"),
  project("npm test 2>&1 | tail -n 20"),
  project("cargo test && git status --short"),
];
