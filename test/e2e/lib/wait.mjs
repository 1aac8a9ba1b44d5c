/** Polling for what a scenario cannot await directly: a file's content, a process ending. */

/**
 * Resolves once `condition` (sync or async) is true; throws, naming `what`, after `timeoutMs`.
 * @param {() => boolean | Promise<boolean>} condition
 * @param {string} what
 */
export async function waitUntil(condition, what, timeoutMs = 10_000, pollMs = 100) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}
