import { describe, expect, it } from "vitest";
import { BackgroundCommands } from "./background-commands";

describe("BackgroundCommands", () => {
  it("has nothing to report until a command prints or ends", () => {
    const commands = new BackgroundCommands();
    commands.watch("npm run dev");
    expect(commands.takeReport()).toBeUndefined();
  });

  it("reports each command's new output once, and an ended command once more with how it ended", () => {
    const commands = new BackgroundCommands();
    const server = commands.watch("npm run dev");
    const tests = commands.watch("npm test");
    server.append("listening on :3000\n");
    tests.append("12 passed\n");
    tests.end("The command exited with code 0.");

    const first = commands.takeReport() ?? "";
    expect(first).toMatch(/^<background_commands>\n/);
    expect(first).toContain("Command `npm run dev` is still running.\nNew output:\nlistening on :3000");
    expect(first).toContain("Command `npm test` has ended. The command exited with code 0.\nNew output:\n12 passed");
    expect(commands.takeReport()).toBeUndefined();

    server.append("GET / 500\n");
    tests.append("late text after the end is not reported\n");
    const second = commands.takeReport() ?? "";
    expect(second).toContain("GET / 500");
    expect(second).not.toContain("listening on :3000");
    expect(second).not.toContain("npm test");
  });

  it("says so when a command ended without printing anything new", () => {
    const commands = new BackgroundCommands();
    commands.watch("sleep 5").end("The command exited with code 0.");
    expect(commands.takeReport()).toContain("Command `sleep 5` has ended. The command exited with code 0.\nNo new output.");
  });

  it("keeps a chatty command's news within the output bounds (beginning and end)", () => {
    const commands = new BackgroundCommands({ headLines: 3, headBytes: 10_000, tailLines: 3, tailBytes: 10_000, lineChars: 200 });
    const feed = commands.watch("yes");
    for (let i = 0; i < 1000; i++) feed.append(`line ${i}\n`);
    const report = commands.takeReport() ?? "";
    expect(report).toContain("line 0");
    expect(report).toContain("line 999");
    expect(report).not.toContain("line 500\n");
  });
});
