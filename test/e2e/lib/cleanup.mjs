/**
 * Teardown steps, run last-in first-out. Every step runs even when an earlier one throws; the
 * failures are reported together afterwards, never dropped.
 */
export class Cleanup {
  /** @type {Array<{ label: string, step: () => Promise<void> | void }>} */
  #steps = [];

  /** @param {string} label  says what the step stops, for the error message */
  add(label, step) {
    this.#steps.push({ label, step });
  }

  async run() {
    const failures = [];
    for (const { label, step } of this.#steps.splice(0).reverse()) {
      try {
        await step();
      } catch (error) {
        failures.push(`${label}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    if (failures.length > 0) throw new Error(`teardown failed:\n  ${failures.join("\n  ")}`);
  }
}
