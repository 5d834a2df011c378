/**
 * What the sandbox serves is pinned byte for byte: digests of every answer, plain and wild, to about
 * 600 requests over all 20 endpoints, recorded before the generator was made faster, for several seeds
 * and clocks: the 53rd week of 2026, a partial first week of 2027, a start of day. The suite checks a
 * sixth of them for one seed and clock (a subset of the full set, so its digest rests on the same
 * recording), endpoint by endpoint so a failure says where; NEWSSTATS_SANDBOX_FINGERPRINT=full checks them all. Any change to the data must change
 * these on purpose (the wild answers last changed with the one schema, #30: they send only what the
 * contract allows).
 */
import { describe, expect, it } from 'vitest';
import { fingerprint } from './fingerprint.js';

const FULL = process.env.NEWSSTATS_SANDBOX_FINGERPRINT === 'full';

/**
 * The suite's sixth for seed 7 at 2027-01-04 15:30 (a partial first week of 2027), endpoint by
 * endpoint: a change says which endpoint's answers changed, plain or wild.
 */
const QUICK_BY_ENDPOINT = {
  '/weeks/current plain': '040b4d95afcb',
  '/weeks/current wild': '040b4d95afcb',
  '/people plain': '97e268e451b6',
  '/people wild': '91bc55e379bd',
  '/countries plain': 'c9c5cd1aa604',
  '/countries wild': '805b8fd87491',
  '/sources plain': 'e4816aaea139',
  '/sources wild': '78e2115ae447',
  '/articles/stats/all-time plain': 'edd102f1c7e9',
  '/articles/stats/all-time wild': '536e0c15199e',
  '/articles/stats plain': '486a21caa5de',
  '/articles/stats wild': '241481b503ae',
  '/articles/recent plain': '75b239ddf477',
  '/articles/recent wild': '24275e502852',
  '/posts/recent plain': '5c3cf4184be1',
  '/posts/recent wild': '5b8fb1d70c8f',
  '/posts/{slug} plain': 'f115c0b75ef6',
  '/posts/{slug} wild': 'a051dd0f5075',
  '/people/search plain': '31a8408904e0',
  '/people/search wild': '246294266a31',
  '/people/top plain': '8f1ab5a9d9cf',
  '/people/top wild': '9a7acf5716b9',
  '/people/{personHash} plain': 'be2dd0d435ed',
  '/people/{personHash} wild': '90f1231a1d6a',
  '/people/{personHash}/links plain': '4709af47154e',
  '/people/{personHash}/links wild': '919fd8aeb6e6',
  '/people/{personHash}/country-stats plain': 'd613f5dd25d8',
  '/people/{personHash}/country-stats wild': '720ed79e4622',
  '/countries/{countryId} plain': '4c5550d0e69b',
  '/countries/{countryId} wild': '2af1f1056a92',
  '/countries/{countryId}/international-attention plain': '20ae17d17be7',
  '/countries/{countryId}/international-attention wild': 'ff0c5c2230d5',
  '/countries/{countryId}/domestic-focus plain': '6aee819c86b7',
  '/countries/{countryId}/domestic-focus wild': 'df1d1e31f6cd',
  '/countries/slug/{slug} plain': '6e63197234f9',
  '/countries/slug/{slug} wild': '649eb0f4e961',
  '/sources/{sourceId} plain': '2f4cad5bef10',
  '/sources/{sourceId} wild': '22293aab4b0e',
  '/sources/{sourceId}/links plain': '1d995bc5b944',
  '/sources/{sourceId}/links wild': '4e1106bdcb79',
};

describe('the sandbox serves the same bytes as before', () => {
  it('seed 7, now 2027-01-04T15:30:00Z: a sixth of the requests, each endpoint\'s answers as recorded', () => {
    const quick = fingerprint(7, new Date('2027-01-04T15:30:00Z'), 'quick');
    // Endpoint by endpoint first, so a failure names what changed; then the digest of the recording.
    expect(quick.byEndpoint).toEqual(QUICK_BY_ENDPOINT);
    expect(quick).toMatchObject({ digest: '14e04e050a2daf273f1569402fcad0d1ed8e768b6a7b90a03333b91d0ed4f705', requests: 109 });
  });

  it.runIf(FULL).each([
    [1, '2026-12-31T00:00:00Z', '545a8bbdc7153f3f68979fb3424f4c50466dc017191bc013de09d3e3093111e7'],
    [2 ** 40 + 3, '2026-03-04T12:00:00Z', 'f268c415609e6c304904fdb35df7295c7fca36b143799bff2dd625ae161a6456'],
    [1, '2027-01-04T15:30:00Z', 'eef07fc5555bf0e53a2d759b55e4607c58465c97ddaa342b6cd98144348725b5'],
    [7, '2026-12-31T00:00:00Z', 'acf59d64e487104e054df1c04a5a034309341d87a4a941c37ecfdcf0af35b0bc'],
  ] as const)('seed %s, now %s: a sixth of the requests', (seed, now, digest) => {
    expect(fingerprint(seed, new Date(now), 'quick')).toMatchObject({ digest, requests: 109 });
  });

  it.runIf(FULL).each([
    [1, '2026-12-31T00:00:00Z', '172705287eccf36c7818118425e7049b71d24aebcfd8a2a9c8b389ee69fbed12'],
    [1, '2027-01-04T15:30:00Z', 'be8d4e87a8164683e9e36bf9f8f365b039fe18b091e3bafebf4fada138687127'],
    [7, '2026-12-31T00:00:00Z', 'd4968aa7d7c32488bfd6e478adaf6b697f3cfba70762142861ef55aa76ff2265'],
    [7, '2027-01-04T15:30:00Z', 'd1b3ae241b92135ccbc371b965f26beabccb441cb3be06143e485b5189d7d5bc'],
    [2 ** 40 + 3, '2026-03-04T12:00:00Z', 'c10873f8bfa93d0c634fc932fb14088730a85e4148933b4dde9d250b3367693f'],
  ] as const)('seed %s, now %s: about 600 requests', (seed, now, digest) => {
    expect(fingerprint(seed, new Date(now), 'full')).toMatchObject({ digest, requests: 592 });
  });
});
