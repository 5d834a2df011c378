/**
 * What the sandbox serves is pinned byte for byte: digests of every answer, plain and wild, to about
 * 600 requests over all 20 endpoints, recorded before the generator was made faster, for several seeds
 * and clocks: the 53rd week of 2026, a partial first week of 2027, a start of day. The suite checks a
 * sixth of them for one seed and clock (a subset of the full set, so its digest rests on the same
 * recording); NEWSSTATS_SANDBOX_FINGERPRINT=full checks them all. Any change to the data must change
 * these on purpose (the wild answers last changed with the one schema, #30: they send only what the
 * contract allows).
 */
import { describe, expect, it } from 'vitest';
import { fingerprint } from './fingerprint.js';

const FULL = process.env.NEWSSTATS_SANDBOX_FINGERPRINT === 'full';

describe('the sandbox serves the same bytes as before', () => {
  it.each([
    [7, '2027-01-04T15:30:00Z', '14e04e050a2daf273f1569402fcad0d1ed8e768b6a7b90a03333b91d0ed4f705'],
    ...(FULL
      ? ([
          [1, '2026-12-31T00:00:00Z', '545a8bbdc7153f3f68979fb3424f4c50466dc017191bc013de09d3e3093111e7'],
          [2 ** 40 + 3, '2026-03-04T12:00:00Z', 'f268c415609e6c304904fdb35df7295c7fca36b143799bff2dd625ae161a6456'],
          [1, '2027-01-04T15:30:00Z', 'eef07fc5555bf0e53a2d759b55e4607c58465c97ddaa342b6cd98144348725b5'],
          [7, '2026-12-31T00:00:00Z', 'acf59d64e487104e054df1c04a5a034309341d87a4a941c37ecfdcf0af35b0bc'],
        ] as const)
      : []),
  ] as const)('seed %s, now %s: a sixth of the requests', (seed, now, digest) => {
    expect(fingerprint(seed, new Date(now), 'quick')).toEqual({ digest, requests: 109 });
  });

  it.runIf(FULL).each([
    [1, '2026-12-31T00:00:00Z', '172705287eccf36c7818118425e7049b71d24aebcfd8a2a9c8b389ee69fbed12'],
    [1, '2027-01-04T15:30:00Z', 'be8d4e87a8164683e9e36bf9f8f365b039fe18b091e3bafebf4fada138687127'],
    [7, '2026-12-31T00:00:00Z', 'd4968aa7d7c32488bfd6e478adaf6b697f3cfba70762142861ef55aa76ff2265'],
    [7, '2027-01-04T15:30:00Z', 'd1b3ae241b92135ccbc371b965f26beabccb441cb3be06143e485b5189d7d5bc'],
    [2 ** 40 + 3, '2026-03-04T12:00:00Z', 'c10873f8bfa93d0c634fc932fb14088730a85e4148933b4dde9d250b3367693f'],
  ] as const)('seed %s, now %s: about 600 requests', (seed, now, digest) => {
    expect(fingerprint(seed, new Date(now), 'full')).toEqual({ digest, requests: 592 });
  });
});
