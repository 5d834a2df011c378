/**
 * Results serialise with every digit: stringify writes bigints and LosslessNumbers as the numbers
 * they are, and parse reads them back, in both number modes.
 */
import { LosslessNumber } from 'lossless-json';
import { afterEach, describe, expect, it } from 'vitest';
import { NewsStatsClient, parse, stringify } from '../../../src/index.js';
import { sendJson, startServer, type LocalServer } from './local-server.js';

let server: LocalServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const LINK_TEXT = '[{"personHash":"p-1","articleHash":1152921504606846977,"mentionDate":"2026-11-20T08:00:00Z","snippet":"x","sentiment":0.50}]';

describe('stringify and parse', () => {
  it('write a native-mode result exactly: the articleHash is a string of its digits, which JSON.stringify writes too', async () => {
    server = await startServer((_request, response) => sendJson(response, 200, LINK_TEXT));
    const client = new NewsStatsClient({ baseUrl: server.baseUrl, apiKey: 'k' });
    const links = await client.people.links('p-1', { includeContext: false });
    expect(links[0]!.articleHash).toBe('1152921504606846977');
    const text = stringify(links);
    expect(text).toBe('[{"personHash":"p-1","articleHash":"1152921504606846977","mentionDate":"2026-11-20T08:00:00Z","snippet":"x","sentiment":0.5}]');
    expect(JSON.stringify(links)).toBe(text);
    expect(parse(text)).toEqual(links);
    await client.close();
  });

  it('write a lossless-mode result with the digits as sent, 0.50 included, and read it back', async () => {
    server = await startServer((_request, response) => sendJson(response, 200, LINK_TEXT));
    const client = new NewsStatsClient({ baseUrl: server.baseUrl, apiKey: 'k', numbers: 'lossless' });
    const links = await client.people.links('p-1', { includeContext: false });
    expect(JSON.stringify(links)).toContain('isLosslessNumber');
    const text = stringify(links);
    expect(text).toBe(LINK_TEXT);
    const back = parse(text, 'lossless') as typeof links;
    expect(back).toEqual(links);
    expect(back[0]!.sentiment).toBeInstanceOf(LosslessNumber);
    await client.close();
  });

  it('indent as JSON.stringify does, and print values without a JSON form as null', () => {
    expect(stringify({ a: [1n, new LosslessNumber('2.0')] }, 2)).toBe('{\n  "a": [\n    1,\n    2.0\n  ]\n}');
    expect(stringify(undefined)).toBe('null');
    // A string holding the marker character the fast path uses still round-trips.
    expect(String((parse(stringify({ text: '\u0000123', big: 2n ** 70n }), 'lossless') as { big: unknown }).big)).toBe(String(2n ** 70n));
  });
});
