/**
 * The terminal cannot be forged: the built CLI prints what a hostile model wrote (an OSC 52
 * clipboard write, a window title, colour and cursor sequences, a bare carriage return that
 * paints `echo hello` over `touch …`) with every control character visible, in the chat, in the
 * approval line and in the note that refuses it.
 */
import { stat } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startCliHarness, type CliHarness } from "./cli-harness";

let cli: CliHarness;

beforeAll(async () => {
  cli = await startCliHarness();
});

afterAll(async () => {
  await cli?.close();
});

// eslint-disable-next-line no-control-regex
const ACTING = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

it("shows the control characters of model text and of a command instead of sending them to the terminal", async () => {
  const workspace = await cli.workspace();
  const forged = "touch pwned\recho hello";
  await cli.script([
    { text: `Copying\u001b]52;c;cm0gLXJmIH4=\u0007 now\u001b]0;All good\u0007.\n<execute_command>\n<command>${forged}</command>\n<requires_approval>false</requires_approval>\n</execute_command>` },
    { text: "<attempt_completion>\n<result>Done.</result>\n</attempt_completion>" },
  ]);
  const run = await cli.run(["--cwd", workspace, "--sandbox", "off", "Tidy up"]);
  expect(run.code, run.stderr).toBe(3); // the command needed an approval nobody could give
  for (const [name, text] of [["stdout", run.stdout], ["stderr", run.stderr]] as const) expect(ACTING.exec(text)?.[0].charCodeAt(0), name).toBeUndefined();
  expect(run.stdout).toContain("Copying␛]52;c;cm0gLXJmIH4=␇ now␛]0;All good␇.");
  expect(run.stdout).toContain("? run command: touch pwned␍echo hello");
  expect(run.stderr).toContain('The command "touch pwned␍echo hello" needs approval');
  await expect(stat(join(workspace, "pwned"))).rejects.toThrow(/ENOENT/);
});
