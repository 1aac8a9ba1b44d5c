/** A command's rows say what it runs under, how it ended and what the sandbox blocked, from the fields the core sets. */
import { fireEvent, render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { CommandConfinement } from "../../../src/shared/command-run";
import type { ChatMessage } from "../../../src/shared/messages";
import { ExtensionStore } from "../state/extension-store";
import { PanelContext } from "../state/panel-context";
import { ask, say } from "../test-support/fixtures";
import { createMemoryApi } from "../vscode-api";
import { RowForMessage } from "./MessageRow";

const SANDBOXED: CommandConfinement = { kind: "sandboxed", technology: "bubblewrap", network: "allowList", allowedDomains: 8, writableFolders: ["~/.npm", "~/.cache"] };

function show(message: ChatMessage) {
  const store = new ExtensionStore();
  const view = render(
    <PanelContext.Provider value={{ api: createMemoryApi(), store }}>
      <RowForMessage message={message} />
    </PanelContext.Provider>,
  );
  return { store, text: view.container.textContent ?? "", container: view.container };
}

describe("the command row", () => {
  it("says, on the question, what the sandbox lets the command do", () => {
    const { text } = show(ask("command", 1, { text: "npm test", tool: { tool: "execute_command", content: "npm test", confinement: SANDBOXED } }));
    expect(text).toContain("$ npm test");
    expect(text).toContain("In the sandbox (bubblewrap): writes only in the workspace, a temp folder, ~/.npm and ~/.cache; network only to the allow list (8 domains)");
  });

  it.each<[CommandConfinement, string]>([
    [{ kind: "outside" }, "Outside the sandbox, as the model asked: full access to your files and the network"],
    [{ kind: "none", why: "off" }, 'Not sandboxed (tandem.sandbox.mode is "off")'],
    [{ kind: "none", why: "unavailable", reason: "bwrap is missing" }, "Not sandboxed (no sandbox on this machine)"],
    [{ ...SANDBOXED, network: "none" } as CommandConfinement, "no network"],
  ])("words %j", (confinement, words) => {
    expect(show(say("command", 1, { text: "ls", tool: { tool: "execute_command", content: "ls", confinement } })).text).toContain(words);
  });
});

describe("the output row", () => {
  it("says the exit code once the command ended, with the confinement in short", () => {
    const { text } = show(say("command_output", 1, { text: "ok", command: { confinement: SANDBOXED, end: { kind: "exited", code: 0 } } }));
    expect(text).toContain("Exit code 0 · in the sandbox (bubblewrap)");
    expect(show(say("command_output", 2, { text: "", command: { confinement: { kind: "none", why: "off" }, end: { kind: "exited", code: 3 } } })).text).toContain(
      "Command ended Exit code 3 · not sandboxed",
    );
  });

  it("names a command gone on in the background on its later rows, since other rows come between", () => {
    const run = { confinement: SANDBOXED, background: "npm run dev" };
    expect(show(say("command_output", 1, { text: "ready", command: run })).text).toContain("Output of npm run dev, in the background");
    const long = { ...run, background: "for i in 1 2 3 4 5 6 7 8 9 10; do echo tick-$i; done" };
    expect(show(say("command_output", 3, { text: "tick-1", command: long })).text).toContain("Output of for i in 1 2 3 4 5 6 7 8 9 10;…, in the background");
    expect(show(say("command_output", 2, { text: "", command: { ...run, end: { kind: "exited", code: 1 } } })).text).toContain(
      "Background command ended: npm run dev Exit code 1 · in the sandbox (bubblewrap)",
    );
  });

  it.each([
    [{ kind: "signal", signal: "SIGTERM" } as const, "Ended by signal SIGTERM"],
    [{ kind: "timeout", seconds: 5 } as const, "Timed out after 5 s: stopped"],
    [{ kind: "killed" } as const, "Stopped (Kill Command)"],
    [{ kind: "cancelled" } as const, "Stopped: the task was cancelled"],
    [{ kind: "background" } as const, "Still running, in the background"],
  ])("says %j", (end, words) => {
    expect(show(say("command_output", 1, { text: "x", command: { confinement: SANDBOXED, end } })).text).toContain(words);
  });

  it("says it still runs while its output streams, and nothing on a finished row of a run still going on", () => {
    expect(show(say("command_output", 1, { text: "tick", partial: true, command: { confinement: SANDBOXED } })).text).toContain("Still running · in the sandbox");
    expect(show(say("command_output", 2, { text: "tick", command: { confinement: SANDBOXED } })).text).not.toContain("running");
  });

  it("says what the sandbox blocked, why, and the setting that would allow it; the button opens the settings", () => {
    const blocked = [
      { kind: "write", target: "/home/me/outside.txt", evidence: "sh: 1: cannot create ../outside.txt: Read-only file system", setting: "tandem.sandbox.writableFolders" },
      { kind: "network", target: "api.example.com", evidence: "curl: (56) CONNECT tunnel failed, response 403", setting: "tandem.sandbox.allowedDomains" },
      { kind: "read", target: "/ws/.env", evidence: "cat: .env: Permission denied" },
    ] as const;
    const { text, store } = show(say("command_output", 1, { text: "…", command: { confinement: SANDBOXED, end: { kind: "exited", code: 2 }, blocked: [...blocked] } }));
    const note = screen.getByRole("note", { name: "What the sandbox blocked" });
    expect(note.textContent).toContain("The sandbox blocked this command:");
    expect(text).toContain("Writing /home/me/outside.txt: it is outside the folders sandboxed commands may write");
    expect(text).toContain("add /home/me to the setting tandem.sandbox.writableFolders");
    expect(text).toContain("cannot create ../outside.txt: Read-only file system");
    expect(text).toContain("add api.example.com to the setting tandem.sandbox.allowedDomains");
    expect(text).toContain("Reading /ws/.env: the sandbox hides");
    expect(text).toContain("No setting allows it");
    fireEvent.click(screen.getByRole("button", { name: "Open the sandbox settings" }));
    expect(store.getState().view).toBe("settings");
  });

  it("keeps the plain output row of a run without a command record (an older task)", () => {
    const { text } = show(say("command_output", 1, { text: "hello" }));
    expect(text).toBe("Outputhello");
  });
});
