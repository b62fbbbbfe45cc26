import { statSync } from 'node:fs';
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Seconds of test work per kB of test file, by folder, from a full run on a 2-core machine: a
 * browser file costs six times an API file of its size.
 */
const SECONDS_PER_KB: Record<string, number> = {
  e2e: 1.9,
  security: 0.9,
  jobs: 0.7,
  payments: 0.35,
  unit: 0.35,
  api: 0.3,
  plugins: 0.2,
};

/** Files whose size does not show their cost: the quick start installs, builds and starts a fresh clone, then starts it again. */
const KNOWN_SECONDS: Record<string, number> = { 'test/e2e/quick-start.test.ts': 65 };

/**
 * Longest first, so the two workers end together instead of one running a long file alone at
 * the end. A file's time is its duration in the last run vitest remembers, or, on a fresh clone,
 * an estimate from its folder and size.
 */
export default class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const seconds = (spec: TestSpecification): number => {
      const last = this.ctx.cache.getTestSpecificationResult(spec);
      if (last) return last.duration / 1000;
      const file = path.relative(root, spec.moduleId).split(path.sep).join('/');
      const known = KNOWN_SECONDS[file];
      if (known !== undefined) return known;
      const folder = file.split('/')[1] ?? '';
      return (statSync(spec.moduleId).size / 1000) * (SECONDS_PER_KB[folder] ?? 0.5);
    };
    const estimated = new Map(files.map((spec) => [spec, seconds(spec)]));
    return [...files].sort((a, b) => (estimated.get(b) ?? 0) - (estimated.get(a) ?? 0));
  }
}
