import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandbox, FIXED_NOW } from '../e2e/harness.js';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { sharedSandboxModel } from '../../src/sandbox/data/index.js';
import { commandLines, FORMATS, outputProblems, runIn, type Addresses } from './commands.js';

/**
 * Every command in every format against `newsstats sandbox --wild`. One seed in `npm test`;
 * NEWSSTATS_WILD_SEEDS=20 runs seeds 1-20 (docs/sandbox-server.md).
 */
const SEED_COUNT = Number(process.env.NEWSSTATS_WILD_SEEDS ?? 0);
const SEEDS = SEED_COUNT > 0 ? Array.from({ length: SEED_COUNT }, (_, index) => index + 1) : [7];

describe.each(SEEDS)('wild sandbox, seed %i', (seed) => {
  let server: RunningSandbox;
  let ids: Addresses;
  beforeAll(async () => {
    server = await sandbox({ wild: true, seed });
    // The model the sandbox serves (the same seed and clock): made once, not a second time here.
    const model = sharedSandboxModel({ seed, now: FIXED_NOW });
    const top = model.topPeople({ startWeek: 202644, endWeek: 202647, limit: 2, fresh: false, sortBy: 'mentions' });
    ids = { personHash: top[0]!.personHash, otherPersonHash: top[1]!.personHash, countryId: 1, sourceId: 1, slug: model.recentPosts(1)[0]!.slug };
  });
  afterAll(() => server.close());

  it('every command succeeds in every format', async () => {
    const failures: string[] = [];
    for (const [name, args] of Object.entries(commandLines(ids))) {
      for (const format of FORMATS) {
        const run = await runIn(server, args, format);
        if (run.code !== 0) failures.push(`${name} -f ${format}: exit ${run.code}: ${run.stderr.trim()}`);
        else for (const problem of await outputProblems(run, format)) failures.push(`${name} -f ${format}: ${problem}`);
      }
    }
    expect(failures).toEqual([]);
  }, 600_000);
});
