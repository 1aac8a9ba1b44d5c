/**
 * vitest orders files by their last run's duration, and by size where it has no record (a fresh
 * clone, as in CI). The corpora are small files that run for minutes: started last they would
 * run alone at the end. These start first whatever the cache says.
 */
import { BaseSequencer, type TestSpecification } from "vitest/node";

const LONG_RUNNING = [/test\/security\/corpus\.test\.ts$/, /test\/sandbox\/corpus\.test\.ts$/, /test\/bundle\/cli-tools\.test\.ts$/];

export class LongFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (file: TestSpecification) => {
      const index = LONG_RUNNING.findIndex((pattern) => pattern.test(file.moduleId));
      return index === -1 ? LONG_RUNNING.length : index;
    };
    // Array.prototype.sort is stable: the rest keep vitest's order.
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}
