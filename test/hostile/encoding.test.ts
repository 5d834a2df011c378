/**
 * How a body's bytes become text (issue #21, Low): a UTF-8 byte order mark at the start of a JSON
 * answer is accepted (it was "Unexpected character", exit 5), and bytes that are not UTF-8 are said
 * on stderr, once per answer and naming it, instead of turning into U+FFFD in silence. Both failed on
 * the build before.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { expectSuccess } from '../e2e/harness.js';
import { COUNTRIES, KEY, hostileServer, run, type HostileServer, type Route } from './servers.js';

/** Answers with exactly these bytes. */
function bytes(body: Buffer): Route {
  return (_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
    response.end(body);
  };
}

let server: HostileServer;
beforeAll(async () => {
  server = await hostileServer({
    '/api/data/countries': bytes(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify(COUNTRIES))])),
    // "Caf\xe9": Latin-1, not UTF-8; then a lone continuation byte and a cut-off sequence.
    '/api/data/sources': bytes(Buffer.from('[{"sourceId":1,"countryId":18,"name":"Caf\xe9 \x80 \xe2\x82","url":"https://x.example"}]', 'latin1')),
  });
});
afterAll(() => server.close());

const env = { NEWSSTATS_API_KEY: KEY };

test('a UTF-8 byte order mark before the JSON is accepted, and the data is exactly the answer', async () => {
  const result = await run(['countries', 'list', '-f', 'json', '--no-cache'], { env: { ...env, NEWSSTATS_BASE_URL: server.url } });
  expect(JSON.parse(expectSuccess(result))).toEqual(COUNTRIES);
  expect(result.stderr).toBe('');
});

test('bytes that are not UTF-8: the data goes on (as U+FFFD) with one note naming the answer', async () => {
  const result = await run(['sources', 'list', '-f', 'json', '--no-cache'], { env: { ...env, NEWSSTATS_BASE_URL: server.url } });
  const [source] = JSON.parse(expectSuccess(result)) as Array<{ name: string }>;
  expect(source!.name).toBe('Caf\uFFFD \uFFFD \uFFFD');
  expect(result.stderr).toBe('the answer to GET /api/data/sources held bytes that are not UTF-8; they are shown as U+FFFD (\uFFFD)\n');
});

test('-q silences the note, not the data', async () => {
  const result = await run(['sources', 'list', '-f', 'json', '--no-cache', '-q'], { env: { ...env, NEWSSTATS_BASE_URL: server.url } });
  expect(JSON.parse(expectSuccess(result))).toHaveLength(1);
  expect(result.stderr).toBe('');
});
