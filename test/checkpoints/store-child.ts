/**
 * The process the checkpoint crash tests kill (or run side by side): opens a store and runs one
 * operation, printing "started" just before it and "done <result>" after.
 *
 *   node store-child.js save|restore|saves <storageRoot> <workspace> <taskId> [hash | rounds]
 * "saves N" writes `<taskId>.txt` with the round's number and saves, N times.
 */
import { writeFileSync } from "node:fs";
import * as path from "node:path";
import { CheckpointStore } from "../../src/core/checkpoints";

async function main(): Promise<void> {
  const [operation, storageRoot, workspace, taskId, argument] = process.argv.slice(2) as [string, string, string, string, string | undefined];
  const store = await CheckpointStore.open({ storageRoot, workspaceRoot: workspace, taskId });
  process.stdout.write("started\n");
  if (operation === "save") {
    const saved = await store.save("from the child");
    process.stdout.write(`done ${saved.hash}\n`);
  } else if (operation === "restore") {
    const restored = await store.restoreFiles(argument as string);
    process.stdout.write(`done ${restored.written.length}\n`);
  } else if (operation === "saves") {
    await store.initialize();
    for (let round = 1; round <= Number(argument); round++) {
      writeFileSync(path.join(workspace, `${taskId}.txt`), `${round}\n`);
      await store.save(`round ${round}`);
    }
    process.stdout.write("done\n");
  } else throw new Error(`unknown operation ${operation}`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
