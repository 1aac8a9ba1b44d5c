import { describe, expect, it } from "vitest";
import { NOTHING_TO_SCAN, ripGrep, RipgrepError } from "./no-cwd-scan";

describe("the bundles' stand-in for the sandbox library's ripgrep search", () => {
  it("answers the search Tandem configures with nothing, at once", async () => {
    await expect(ripGrep(["--files"], "/work", undefined, { command: NOTHING_TO_SCAN })).resolves.toEqual([]);
  });

  it("refuses any other search instead of pretending it found nothing", async () => {
    for (const config of [undefined, { command: "rg" }, { command: NOTHING_TO_SCAN, args: ["--hidden"] }]) {
      const searched = ripGrep(["--files"], "/work", undefined, config);
      await expect(searched).rejects.toBeInstanceOf(RipgrepError);
      await expect(searched).rejects.toMatchObject({ listed: [], message: expect.stringContaining("runs no ripgrep search") });
    }
  });
});
