/**
 * Masking the key in printed text (issue #21, Low): a long key anywhere; a short one where a key could
 * show up (a token of its own, the value of something named like a key), never inside a word, a path,
 * a URL or a host name, where masking it would mangle the text and tell what the key is.
 */
import { describe, expect, test } from 'vitest';
import { redactSecret } from '../../../src/api/redact.js';

describe('a long key (8 characters or more) is masked wherever it appears', () => {
  test('in words, paths and query values alike', () => {
    expect(redactSecret('key=abcdefgh123 and xabcdefgh123x /p/abcdefgh123/q', 'abcdefgh123')).toBe('key=•••• and x••••x /p/••••/q');
  });
});

describe('a short key is masked where a key could show up', () => {
  test.each([
    ['top', 'invalid API key top', 'invalid API key ••••'],
    ['top', 'invalid API key top.', 'invalid API key ••••.'],
    ['top', "the key 'top' was refused", "the key '••••' was refused"],
    ['top', '{"detail":"key \\"top\\" unknown"}', '{"detail":"key \\"••••\\" unknown"}'],
    ['top', 'X-Api-Key: top', 'X-Api-Key: ••••'],
    ['top', 'x-api-key:top', 'x-api-key:••••'],
    ['top', '/api/data/people?apiKey=top&week=202647', '/api/data/people?apiKey=••••&week=202647'],
    ['top', '{"apiKey":"top"}', '{"apiKey":"••••"}'],
    ['top', 'token=top', 'token=••••'],
    ['people', 'top, people; (people)', 'top, ••••; (••••)'],
    ['e', 'the key e was refused', 'the key •••• was refused'],
    // A word of prose is no excuse: a service may echo the key it refused in a sentence.
    ['top', 'top is not a valid key', '•••• is not a valid key'],
    ['people', 'rejected people for this account', 'rejected •••• for this account'],
    // A key is text, never a pattern.
    ['.*', 'x .* y and abc', 'x •••• y and abc'],
  ])('key %j in %j', (key, text, masked) => {
    expect(redactSecret(text, key)).toBe(masked);
  });
});

describe('a short key is left alone inside words, paths, URLs and host names', () => {
  test.each([
    ['e', 'error: person "nobody" not found'],
    ['top', 'cannot reach 127.0.0.1:9 (ECONNREFUSED) for GET /api/data/people/top'],
    ['people', 'cannot reach 127.0.0.1:9 (ECONNREFUSED) for GET /api/data/people/top'],
    ['people', 'GET https://stats.example/api/data/search?term=people&limit=10 200 12ms'],
    ['top', 'the service at https://top.example.com answered 500'],
    ['top', 'stop: topics atop the top-10 list and top_n'],
    ['people', 'see people.csv or C:\\data\\people\\x'],
    ['top', 'mail top@example.com #top 50%top'],
  ])('key %j in %j', (key, text) => {
    expect(redactSecret(text, key)).toBe(text);
  });
});

describe("the sandbox's published key is not a secret", () => {
  test('its own messages read whole (Injected failure (sandbox fail rate)), wherever the word stands', () => {
    for (const text of ['Injected failure (sandbox fail rate)', 'invalid API key sandbox', 'X-Api-Key: sandbox']) {
      expect(redactSecret(text, 'sandbox')).toBe(text);
    }
  });

  test('a key that only contains it is masked as any long key is', () => {
    expect(redactSecret('invalid API key sandbox2', 'sandbox2')).toBe('invalid API key ••••');
  });
});
