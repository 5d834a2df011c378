/**
 * A short API key (issue #21, Low): `top` or `people` was masked inside URL paths
 * (`/api/data/people/••••`), which told anyone reading the message what the key was. Where a service
 * echoes the key (a problem's title, detail or traceId), it is still masked, on stderr with and
 * without --verbose; the paths around it stay as they were. Both failed on the build before.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { hostileServer, json, run, type HostileServer } from './servers.js';

const PATH = '/api/data/people/top';
let echoing: HostileServer;
let key = '';
beforeAll(async () => {
  // The problem echoes whatever key the test is using, in every field a message shows.
  echoing = await hostileServer({
    [PATH]: (request, response) => json({
      title: `invalid API key ${key}`, status: 401, detail: `X-Api-Key: ${key}`, traceId: key,
    }, 401)(request, response),
  });
});
afterAll(() => echoing.close());

describe('a short key that is also a word of the path', () => {
  for (const shortKey of ['top', 'people']) {
    test(`key "${shortKey}": masked where the service echoed it, never in the path (exit 3)`, async () => {
      key = shortKey;
      const result = await run(['people', 'top', '--weeks', '202644..202647', '-v', '--no-cache', '-f', 'json'], {
        env: { NEWSSTATS_BASE_URL: echoing.url, NEWSSTATS_API_KEY: shortKey },
      });
      expect(result.code).toBe(3);
      expect(result.stderr).toContain('\nerror: authentication failed (HTTP 401): the API key is missing or invalid: invalid API key •••• (traceId ••••)\n');
      // --verbose names the request with its path whole.
      expect(result.stderr).toContain(`GET ${echoing.url}${PATH}?startWeek=202644&endWeek=202647 failed`);
      // Apart from the path, the key is nowhere: not in the title, the detail or the traceId.
      expect(result.stderr.replaceAll(PATH, '')).not.toContain(shortKey);
      expect(result.stdout).toBe('');
    });
  }
});
