/**
 * An API key typed into the panel's settings view (the write-only key field) reaches the model
 * as its header, and its bytes appear in no file of the session: user data (state.vscdb and
 * logs, task storage), extensions, XDG folders, the workspace, the harness's logs and the Chromium
 * profile (Local Storage, IndexedDB), searched after the browser has closed and flushed them.
 *
 * What code-server does with it (checked on 4.100.3): the workbench keeps secrets in the
 * browser's localStorage under "secrets.provider", sealed with AES-GCM by a key the server mints
 * (POST /mint-key; its half of the key is user-data/serve-web-key-half). Over plain http from a non-localhost address (no crypto.subtle) it would
 * store them unsealed, so Tandem should be used on 127.0.0.1 or over https.
 */
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { expectWebviewText, openTandemView, runCommand, saveScreenshot } from "../lib/workbench.mjs";

export const description = "A key saved in the settings view reaches the model and is on no disk in plain bytes";

// High entropy (no repeats a compressor could fold into a back-reference) and easy to spot.
const API_KEY = `sk-ant-e2e-${randomBytes(24).toString("base64url")}`;
const SECRET_NAME = "tandem.apiKey.anthropic";
/** Saved in plain text with the task: proves the search reads the files it walks. */
const PROMPT = "Check the key (prompt-marker-5VQ)";

/** @param {import("../lib/harness.mjs").Harness} t */
export default async function keyNotLeaked(t) {
  const session = await t.startSession({
    files: { "README.md": "# keys stay secret\n" },
    tandem: { provider: "anthropic", yolo: true },
    script: [{ text: "Key accepted.\n<attempt_completion>\n<result>KEY-CHECK-DONE</result>\n</attempt_completion>" }],
  });
  const { page } = session;
  const webview = await openTandemView(page);

  await runCommand(page, "Tandem: Open Settings");
  const keyInput = webview.locator('input[aria-label="API key"]');
  await keyInput.waitFor({ timeout: 15_000 });
  assert.equal(await keyInput.getAttribute("type"), "password", "the key field is masked");
  await keyInput.fill(API_KEY);
  await webview.locator("vscode-button", { hasText: /^\s*Save key\s*$/ }).click();
  await expectWebviewText(webview, "A key is stored for Anthropic", 10_000);
  assert.equal(await keyInput.inputValue(), "", "the field is emptied once the key is saved");
  assert.ok(!(await webview.locator("body").innerText()).includes(API_KEY), "the panel does not show the key");
  t.log(`screenshot (settings): ${await saveScreenshot(page, "23-key-not-leaked-settings")}`);
  await webview.locator("vscode-button", { hasText: /^\s*Done\s*$/ }).click();

  const input = webview.getByRole("textbox").first();
  await input.fill(PROMPT);
  await input.press("Enter");
  await expectWebviewText(webview, "KEY-CHECK-DONE", 20_000);
  t.log(`screenshot: ${await saveScreenshot(page, "23-key-not-leaked")}`);
  const [request] = await session.model.requests();
  assert.ok(request, "the model received a request");
  assert.equal(request.headers.authorization, `Bearer ${API_KEY}`, "the key from the settings view is what the model sees");

  // Leaving the workbench and closing the browser makes Chromium and VS Code write out what they keep in memory.
  await page.goto("about:blank");
  await page.context().close();
  session.lap("browser closed");

  const needles = [
    ["the key (UTF-8)", Buffer.from(API_KEY, "utf8")],
    ["the key (UTF-16LE)", Buffer.from(API_KEY, "utf16le")],
    // A compressor could split the whole key; a third of it would still show.
    ...[0, 1, 2].map((i) => [`a third of the key (#${i + 1})`, Buffer.from(API_KEY.slice((i * API_KEY.length) / 3, ((i + 1) * API_KEY.length) / 3), "utf8")]),
  ];
  const contents = readEveryFile(session.dir.root);
  const files = [...contents.keys()];
  const found = [];
  let promptSeen = false;
  let bytes = 0;
  const secretHolders = new Set();
  for (const [file, content] of contents) {
    bytes += content.length;
    promptSeen ||= content.includes(Buffer.from(PROMPT, "utf8"));
    for (const [label, needle] of needles) if (content.includes(needle)) found.push(`${label} in ${path.relative(session.dir.root, file)}`);
    for (const marker of ["secrets.provider", SECRET_NAME]) {
      if (content.includes(Buffer.from(marker, "utf8")) || content.includes(Buffer.from(marker, "utf16le"))) {
        secretHolders.add(`${marker} in ${path.relative(session.dir.root, file)}`);
      }
    }
  }
  t.log(`searched ${files.length} files (${(bytes / 1024 / 1024).toFixed(1)} MiB) under ${session.dir.root}`);
  t.log(`where the secret store lives: ${[...secretHolders].join("; ") || "nowhere on disk (kept in memory only)"}`);
  // The browser workbench keeps VS Code's state (state.vscdb on desktop) in IndexedDB, and secrets in Local Storage.
  for (const store of ["Local Storage", "IndexedDB"]) {
    assert.ok(files.some((file) => file.includes(`${path.sep}${store}${path.sep}`)), `Chromium's ${store} was searched`);
  }
  assert.ok(files.some((file) => file.includes(`${path.sep}user-data${path.sep}`)), "VS Code's user data was searched");
  assert.ok(promptSeen, "the search finds the task's prompt, which is saved in plain text");
  assert.deepEqual(found, [], "the API key's bytes are in no file of the session");
}

/** Every regular file under `root`, symlinks not followed. */
function listFiles(root) {
  const out = [];
  for (const entry of readdirSync(root, { withFileTypes: true })) {
    const full = path.join(root, entry.name);
    if (entry.isDirectory()) out.push(...listFiles(full));
    // A file gone since readdir (a renamed temp file) is simply not listed.
    else if (entry.isFile() && (statSync(full, { throwIfNoEntry: false })?.size ?? 0) > 0) out.push(full);
  }
  return out;
}

/**
 * Every file under `root` with its bytes. The extension still runs (checkpoints write a temp
 * index and rename it), so a file may vanish between the listing and the read: the listing is
 * taken again until a pass finds nothing new and loses nothing, so what it was renamed to is read too.
 */
function readEveryFile(root) {
  const contents = new Map();
  for (let pass = 0; pass < 5; pass++) {
    let changed = false;
    for (const file of listFiles(root)) {
      if (contents.has(file)) continue;
      changed = true;
      try {
        contents.set(file, readFileSync(file));
      } catch (error) {
        if (error.code !== "ENOENT") throw error;
      }
    }
    if (!changed && pass > 0) return contents;
  }
  throw new Error(`files kept vanishing under ${root} while it was searched`);
}
