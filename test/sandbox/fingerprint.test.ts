/**
 * What the sandbox serves is pinned byte for byte: digests of about 150 answers (600 with
 * NEWSSTATS_SANDBOX_FINGERPRINT=full), plain and wild, for several seeds and clocks, among them the
 * 53rd week of 2026 and the first week of 2027, a start of day and a partial week. Recorded before
 * the generator was made faster; any change to the data must change these on purpose.
 */
import { describe, expect, it } from 'vitest';
import { fingerprint } from './fingerprint.js';

const FULL = process.env.NEWSSTATS_SANDBOX_FINGERPRINT === 'full';

describe('the sandbox serves the same bytes as before', () => {
  it.each([
    [1, '2026-12-31T00:00:00Z', '6fcbc5c908a35dfbde01163c348bc21c9bc9d2d65f2fb05b444d0b28918f4260'],
    [7, '2027-01-04T15:30:00Z', '50a2bb9e216e61b1a01061948d5bd7c177cc82be3c3fa368a2f170edf83eebab'],
    ...(FULL
      ? [
          [2 ** 40 + 3, '2026-03-04T12:00:00Z', '597f4cf42e8efb7d7662a23dbe171f959cd938a646a89989317c494e14412495'],
          [1, '2027-01-04T15:30:00Z', 'ced2d179ab32b9cda98544726d2dc37064a6f652ddca30cd4029cc333a4b4a6f'],
          [7, '2026-12-31T00:00:00Z', 'f6de499588a53d5c56919b1cbc24aa3fd6081838952ce561d4d67cf78a369b37'],
        ] as const
      : []),
  ] as const)('seed %s, now %s: about 150 requests', (seed, now, digest) => {
    expect(fingerprint(seed, new Date(now), 'quick')).toEqual({ digest, requests: 156 });
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
