/**
 * What the sandbox serves is pinned byte for byte: digests of every answer, plain and wild, to about
 * 600 requests over all 20 endpoints, recorded before the generator was made faster, for several seeds
 * and clocks: the 53rd week of 2026, a partial first week of 2027, a start of day. The suite checks a
 * sixth of them for one seed and clock (a subset of the full set, so its digest rests on the same
 * recording); NEWSSTATS_SANDBOX_FINGERPRINT=full checks them all. Any change to the data must change
 * these on purpose.
 */
import { describe, expect, it } from 'vitest';
import { fingerprint } from './fingerprint.js';

const FULL = process.env.NEWSSTATS_SANDBOX_FINGERPRINT === 'full';

describe('the sandbox serves the same bytes as before', () => {
  it.each([
    [7, '2027-01-04T15:30:00Z', 'c9bc164a7af5fbded6f803764d0a82bfd73d11c310462eaaa0f2bb4f809550bc'],
    ...(FULL
      ? ([
          [1, '2026-12-31T00:00:00Z', 'a683968e22cf953207fed9653c0a714c2097c274f6c04548297ac320230bc879'],
          [2 ** 40 + 3, '2026-03-04T12:00:00Z', '54a087d4d788ba0aa73e22f621d5eb6f5b553cb8f943ac69568758bd351fa280'],
          [1, '2027-01-04T15:30:00Z', 'bded407fd979c5d4dcf5b17af02ab21dfe0da3d11b9e0a74e99f2c7009e7b6f1'],
          [7, '2026-12-31T00:00:00Z', '5022678c47d74b6042bb0a10c29bf312ea72a4f9616f5b1df6264e08b878ec34'],
        ] as const)
      : []),
  ] as const)('seed %s, now %s: a sixth of the requests', (seed, now, digest) => {
    expect(fingerprint(seed, new Date(now), 'quick')).toEqual({ digest, requests: 109 });
  });

  it.runIf(FULL).each([
    [1, '2026-12-31T00:00:00Z', '7d7990525d72b703a1417f88a2d27a3790cc32e6bdda79916f65ca39b045c121'],
    [1, '2027-01-04T15:30:00Z', 'e62487b29543018df0477a5032f664efe21425c59240432b20466e6197b4ccf1'],
    [7, '2026-12-31T00:00:00Z', 'b0024dbc6b9c27ac197a6525631695d97c3327525a90e0a00338bcb08f8001b5'],
    [7, '2027-01-04T15:30:00Z', '27942ebb6d1a6ca3d719cff3f5ca221d7c484efcab357fa9f8b52ca81e42d832'],
    [2 ** 40 + 3, '2026-03-04T12:00:00Z', '475c7c554cbf96481768d30eaac8d7f8d719ae4c7f4f66b1bd9425d48f51dc4d'],
  ] as const)('seed %s, now %s: about 600 requests', (seed, now, digest) => {
    expect(fingerprint(seed, new Date(now), 'full')).toEqual({ digest, requests: 592 });
  });
});
