/**
 * Samples the memory of every process of one run (found by its run marker) while it runs,
 * to report the peak: code-server, its extension host, Chromium, the model server.
 */
import { memoryOf, processesOfRun } from "./processes.mjs";

export function sampleMemory(runId, intervalMs = 1_000) {
  let peakKiB = 0;
  let busy = false;
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    processesOfRun(runId)
      .then((found) => memoryOf(found.map((p) => p.pid)))
      .then((kib) => (peakKiB = Math.max(peakKiB, kib)))
      .catch((error) => console.error(`memory sampling failed: ${error instanceof Error ? error.message : error}`))
      .finally(() => (busy = false));
  }, intervalMs);
  timer.unref();
  return {
    get peakKiB() {
      return peakKiB;
    },
    stop: () => clearInterval(timer),
  };
}
