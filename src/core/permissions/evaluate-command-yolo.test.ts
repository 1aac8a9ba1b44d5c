import { describe, expect, it } from "vitest";
import { evaluateCommand } from "./index";

// YOLO without a sandbox: every "ask" would run, so what the guard cannot read is refused.
const YOLO = { workspaceRoot: "/work/ws", homeDir: "/home/dev", yolo: true };

type Row = readonly [command: string, note?: string];

/** Refused in YOLO (rule "unreadable"); each is only "ask" with the person watching. */
const REFUSED: readonly (readonly [group: string, rows: Row[]])[] = [
  [
    "a command name that is not a literal word",
    [
      ["$(printf rm) -rf ~"],
      ["`printf rm` -rf ~"],
      ["x=$(printf rm); $x -rf ~", "the value comes from a substitution"],
      ["x=ls; true && x=rm; $x -rf ~", "assigned in a branch: either value"],
      ["x=ls; for i in 1; do x=rm; done; $x -rf ~", "assigned in a loop"],
      ["x=ls; eval 'x=rm'; $x -rf ~", "eval may assign anything"],
      ["$CMD -rf ~"],
      ["sudo $X -rf ~", "a wrapper's argument only known at run time"],
    ],
  ],
  [
    "code only known at run time",
    [
      ["eval \"$x\""],
      ["eval $(printf 'rm -rf ~')"],
      ["sh -c \"$x\""],
      ["bash -c \"$(cat payload)\""],
      ["source $F"],
      ["printf 'rm -rf ~' > x.sh; . x.sh", "a script this line writes"],
      ["echo 'rm -rf ~' > x.sh && bash x.sh"],
      ["printf 'rm -rf ~' | sh", "a program piped into a shell"],
      ["trap \"$x\" EXIT"],
      ["PROMPT_COMMAND=\"$x\""],
      ["x='a[$(rm -rf ~)]'; echo $((x))", "arithmetic runs the subscript"],
      ["echo \"${x=\\`rm -rf ~\\`}${x@P}\"", "prompt expansion runs the escaped backticks (issue 11's example)"],
      ["echo ${!x}"],
      ["find . -exec sh -c \"$x\" \\;"],
      ["find . -exec sh -c '{}' \\;", "file names become code"],
      ["bash <(echo 'rm -rf ~')", "a script only known when it runs"],
      ["echo 'rm -rf ~' | xargs -I{} sh -c '{}'", "xargs hands its input to a shell"],
      ["parallel rm -rf ::: ~"],
      ["IFS=:; x=rm:-rf:/home/dev; $x", "IFS on the line: the split is not guessed"],
      ["ssh localhost \"$cmd\""],
    ],
  ],
  [
    "deleting what is only known at run time",
    [
      ["rm -rf $(echo ~)"],
      ["rm -rf \"$TARGET\""],
      ["rm -f $(find ~ -type f)"],
      ["echo ~ | xargs rm -rf"],
      ["git ls-files | xargs rm"],
      ["find $DIR -delete"],
      ["rsync -a --delete empty/ \"$DEST\""],
      ["chmod -R 000 $DIR"],
      ["dd if=/dev/zero of=$DISK"],
      ["mv $(ls) /tmp/"],
    ],
  ],
  [
    "deleting outside the workspace",
    [
      ["rm -rf /tmp/other-project"],
      ["rm -r ../sibling"],
      ["find /tmp/x -name '*.log' -delete"],
      ["rsync -a --delete empty/ /tmp/mirror/"],
      ["python3 -c \"import shutil, os; shutil.rmtree(os.path.expanduser('~'))\""],
      ["perl -MFile::Path -e 'rmtree($ENV{HOME})'"],
      ["node -e \"require('fs').rmSync(require('os').homedir(), {recursive: true})\""],
      ["python3 -c \"import shutil, sys; shutil.rmtree(sys.argv[1])\" ~"],
      ["python3 - <<'EOF'\nimport shutil, os\nshutil.rmtree(os.environ['HOME'])\nEOF", "a program in a here-document"],
      ["tar --remove-files -cf /tmp/a.tar $DIR"],
    ],
  ],
  [
    "interpreter code that builds its code or commands",
    [
      ["python3 -c \"exec(bytes.fromhex('7072696e74'))\""],
      ["python3 -c \"import base64; exec(base64.b64decode('cHJpbnQ='))\""],
      ["node -e \"eval(Buffer.from('Y29uc29sZQ==', 'base64').toString())\""],
      ["python3 -c \"import os, sys; os.system(sys.argv[1])\" 'rm -rf ~'"],
      ["python3 -c \"$CODE\""],
      ["awk '{ print | $0 }' cmds.txt", "awk piping into a command it reads"],
      ["test -v 'a[$(rm -rf ~)]'", "an array subscript bash evaluates"],
    ],
  ],
  [
    "text the guard cannot read as the shell will",
    [
      ["echo 'unterminated", "unparseable"],
      ["cat =(ls)", "zsh-only syntax"],
      ["ls *(e:whoami:)", "a zsh glob qualifier"],
      ["ls\u0001rm -rf ~ #", "a control character"],
      ["echo !!", "history expansion"],
      ["coproc sleep 9", "a construct the policy does not judge"],
    ],
  ],
];

/** Everyday YOLO work still runs (each is "ask", which YOLO approves, or "allow"). */
const RUNS: Row[] = [
  ["npm test"],
  ["npm install"],
  ["git commit -m \"$(cat msg)\"", "a substitution in an argument of a literal command"],
  ["for f in *.ts; do echo $f; done"],
  ["python3 script.py"],
  ["node -e 'console.log(1)'"],
  ["python3 -c \"import json, sys; print(json.load(sys.stdin))\" < data.json"],
  ["python3 -c \"import shutil; shutil.rmtree('build')\"", "a literal folder inside the workspace"],
  ["rm -rf node_modules"],
  ["rm -rf build dist"],
  ["rm -f *.log"],
  ["find . -name '*.pyc' -delete"],
  ["find . -type d -name __pycache__ -exec rm -rf {} +"],
  ["cd src && npm test"],
  ["git push origin main"],
  ["export NODE_ENV=production && npm run build"],
  ["source .venv/bin/activate && pytest"],
  ["kill $(lsof -t -i:3000)"],
  ["FOO=bar node app.js"],
  ["D=build; rm -rf $D", "a variable the line assigns is read"],
  ["curl -s https://api.example.com/items | jq ."],
  ["curl -o data.json https://api.example.com/items"],
  ["npm run dev &"],
  ["echo \"done!\""],
];

describe("evaluateCommand in YOLO mode without a sandbox", () => {
  describe.each(REFUSED)("refuses %s", (_group, rows) => {
    it.each(rows.map((row) => [row[0], row[1] ?? ""] as const))("%j %s", (command) => {
      const result = evaluateCommand(command, YOLO);
      expect(result.decision, result.reason).toBe("deny");
      expect(result.rule, result.reason).toBe("unreadable");
      // Asked, never allowed, when a person is watching.
      expect(evaluateCommand(command, { ...YOLO, yolo: false }).decision).toBe("ask");
    });
  });

  it.each(RUNS.map((row) => [row[0], row[1] ?? ""] as const))("lets %j run %s", (command) => {
    const result = evaluateCommand(command, YOLO);
    expect(result.decision, result.reason).not.toBe("deny");
  });

  it("tells the model how to write the command plainly", () => {
    expect(evaluateCommand("$(printf rm) -rf ~", YOLO).reason).toMatch(/only known when it runs.*YOLO mode without a sandbox.*To run it, write the program's name as a plain word/);
    expect(evaluateCommand("rm -rf /tmp/x", YOLO).reason).toMatch(/outside the workspace.*ask the person/);
    expect(evaluateCommand("echo ~ | xargs rm -rf", YOLO).reason).toMatch(/name the paths literally/);
  });

  it("asks instead when commands run in a sandbox, and never refuses with the guard off", () => {
    for (const [, rows] of REFUSED) {
      for (const [command] of rows) {
        expect(evaluateCommand(command, { ...YOLO, sandboxed: true }).decision, command).toBe("ask");
        expect(evaluateCommand(command, { ...YOLO, denyGuard: false }).decision, command).toBe("ask");
      }
    }
  });

  it("has at least 50 refusals and 20 everyday commands", () => {
    expect(REFUSED.flatMap(([, rows]) => rows).length).toBeGreaterThanOrEqual(50);
    expect(RUNS.length).toBeGreaterThanOrEqual(20);
  });
});
