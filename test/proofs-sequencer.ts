import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * npm test's order: vitest's own (the fast tier first, then the proofs), except that the longest
 * proofs start in this order, so that those that mostly wait (the divergent fake's whole-second
 * timestamps and index lag in profile init and leftovers, the broken targets' timeouts) run
 * beside those that keep both cores busy (the fault matrix's two shards, leave-one-out's two
 * workers), not beside each other. By vitest's order (the longest first, or the largest file on
 * a machine with no timings) profile init and leftovers ran together and left the cores a third
 * idle for two minutes (a 5-second trace of /proc/stat during `npm test`).
 */
const FIRST = [
  'test/kit/fault-matrix.test.ts',
  'test/kit/profile-init.test.ts',
  'test/kit/leftovers.test.ts',
  'test/kit/leave-one-out.test.ts',
  'test/kit/broken-targets.test.ts',
  'test/kit/clean-run.test.ts',
];

export class ProofsSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification) => {
      const at = FIRST.findIndex((file) => spec.moduleId.endsWith(file));
      return at === -1 ? FIRST.length : at;
    };
    // Only the proofs move; the fast tier keeps its place before them (sort is stable).
    const proofs = sorted.filter((spec) => spec.project.name === 'proofs').sort((a, b) => rank(a) - rank(b));
    return [...sorted.filter((spec) => spec.project.name !== 'proofs'), ...proofs];
  }
}
