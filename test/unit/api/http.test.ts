import { LosslessNumber } from 'lossless-json';
import { describe, expect, it } from 'vitest';
import { ConfigurationError } from '../../../src/api/errors.js';
import { buildQueryString, isLoopbackHost, resolveServiceAddress } from '../../../src/api/core/address.js';
import { HTTP_DEFAULTS, HttpClient } from '../../../src/api/core/http-client.js';
import { decodeBody } from '../../../src/api/core/response.js';
import { backoffDelayMs, parseRetryAfter } from '../../../src/api/core/retry.js';

function configurationErrorOf(action: () => unknown): ConfigurationError {
  try {
    action();
  } catch (error) {
    if (error instanceof ConfigurationError) return error;
    throw error;
  }
  throw new Error('expected a ConfigurationError');
}

describe('resolveServiceAddress', () => {
  it('takes the service base with or without a trailing slash or /api/data', () => {
    for (const base of ['https://stats.example.com', 'https://stats.example.com/', 'https://stats.example.com/api/data', 'https://stats.example.com/api/data/']) {
      expect(resolveServiceAddress(base, false)).toEqual({ origin: 'https://stats.example.com', pathPrefix: '', hostPort: 'stats.example.com:443', loopback: false });
    }
    expect(resolveServiceAddress('https://example.com:8443/news//', false))
      .toEqual({ origin: 'https://example.com:8443', pathPrefix: '/news', hostPort: 'example.com:8443', loopback: false });
  });

  it('marks loopback services, which never go through a proxy', () => {
    expect(resolveServiceAddress('http://127.0.0.1:8787', false).loopback).toBe(true);
    expect(resolveServiceAddress('http://localhost:8787', false).loopback).toBe(true);
    expect(resolveServiceAddress('https://stats.example.com', false).loopback).toBe(false);
  });

  it('refuses plain http to a non-loopback host, naming https:// and the allowInsecureHttp option, in library terms', () => {
    const error = configurationErrorOf(() => resolveServiceAddress('http://example.com', false));
    expect(error.setting).toBe('baseUrl');
    expect(error.problem).toBe('insecure');
    expect(error.message).toBe('refusing to send the API key over plain http to example.com: use an https:// base URL, or set allowInsecureHttp');
    // The CLI's flags and profile keys are the CLI's hint to add (exit-codes.ts), not the library's.
    expect(error.message).not.toMatch(/--|allow-insecure-http|profile|newsstats/);
  });

  it('says a missing base URL in library terms', () => {
    const error = configurationErrorOf(() => resolveServiceAddress(undefined, false));
    expect(error.message).toBe('no base URL is set: give baseUrl, the service base, e.g. https://stats.example.com');
    expect(error.message).not.toMatch(/--|base-url|profile|newsstats/);
  });

  it('allows plain http to loopback, and anywhere when opted in', () => {
    for (const base of ['http://127.0.0.1:8080', 'http://127.9.9.9', 'http://localhost:3000', 'http://LOCALHOST', 'http://[::1]:8080']) {
      expect(() => resolveServiceAddress(base, false), base).not.toThrow();
    }
    expect(resolveServiceAddress('http://example.com', true).hostPort).toBe('example.com:80');
  });

  it('says which setting is missing or invalid', () => {
    expect(configurationErrorOf(() => resolveServiceAddress(undefined, false))).toMatchObject({ setting: 'baseUrl', problem: 'missing' });
    expect(configurationErrorOf(() => resolveServiceAddress('  ', false))).toMatchObject({ setting: 'baseUrl', problem: 'missing' });
    for (const base of ['stats.example.com', 'localhost:8080', 'ftp://example.com', 'https://user:pw@example.com', 'https://example.com/?a=1']) {
      expect(configurationErrorOf(() => resolveServiceAddress(base, false)), base).toMatchObject({ setting: 'baseUrl', problem: 'invalid' });
    }
  });
});

describe('isLoopbackHost', () => {
  it('knows 127.0.0.0/8, ::1 and localhost, and nothing else', () => {
    expect(['127.0.0.1', '127.255.0.1', '::1', '[::1]', 'localhost'].every(isLoopbackHost)).toBe(true);
    expect(['128.0.0.1', '10.0.0.1', 'example.com', 'localhost.example.com', '127.example.com'].some(isLoopbackHost)).toBe(false);
  });
});

describe('HttpClient construction', () => {
  it('throws before any network use for a refused URL or a missing key', () => {
    // Construction is synchronous and opens nothing: the throw itself proves no request went out.
    expect(configurationErrorOf(() => new HttpClient({ baseUrl: 'http://example.com', apiKey: 'k' })).problem).toBe('insecure');
    expect(configurationErrorOf(() => new HttpClient({ baseUrl: 'https://example.com', apiKey: '' }))).toMatchObject({ setting: 'apiKey', problem: 'missing' });
    const invalid = configurationErrorOf(() => new HttpClient({ baseUrl: 'https://example.com', apiKey: 'secret key\n' }));
    expect(invalid).toMatchObject({ setting: 'apiKey', problem: 'invalid' });
    expect(invalid.message).not.toContain('secret');
  });

  it('states its defaults in one place', () => {
    expect(HTTP_DEFAULTS).toEqual({
      timeoutMs: 30_000, maxRetries: 3, maxConnections: 8, maxResponseBytes: 16 * 1024 * 1024, allowInsecureHttp: false, retryBaseDelayMs: 250, maxRetryDelayMs: 8_000, maxRetryAfterMs: 60_000,
    });
  });
});

describe('buildQueryString', () => {
  it('skips absent values and writes every kind of value as text', () => {
    expect(buildQueryString({
      a: undefined, b: null, yes: true, no: false, n: 7, x: 1.5,
      big: 1152921504606846977n, exact: new LosslessNumber('1.50'), list: ['a', 'b'],
    })).toBe('?yes=true&no=false&n=7&x=1.5&big=1152921504606846977&exact=1.50&list=a&list=b');
  });

  it('percent-encodes names and values (spaces as %20, not +)', () => {
    expect(buildQueryString({ q: 'José & co+1=2' })).toBe('?q=Jos%C3%A9%20%26%20co%2B1%3D2');
    expect(buildQueryString({})).toBe('');
    expect(buildQueryString(undefined)).toBe('');
  });
});

describe('parseRetryAfter', () => {
  it('reads delta-seconds and HTTP-dates', () => {
    expect(parseRetryAfter('0')).toBe(0);
    expect(parseRetryAfter(' 2 ')).toBe(2000);
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(parseRetryAfter('Wed, 01 Jan 2025 00:00:05 GMT', now)).toBe(5000);
    expect(parseRetryAfter('Tue, 31 Dec 2024 23:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon')).toBeUndefined();
    expect(parseRetryAfter(undefined)).toBeUndefined();
  });
});

describe('backoffDelayMs', () => {
  it('draws from [0, min(cap, base * 2^retry)]', () => {
    expect(backoffDelayMs(0, 250, 8000, () => 0)).toBe(0);
    expect(backoffDelayMs(0, 250, 8000, () => 0.5)).toBe(125);
    expect(backoffDelayMs(2, 250, 8000, () => 0.5)).toBe(500);
    expect(backoffDelayMs(10, 250, 8000, () => 0.999_999)).toBe(7999);
  });
});

describe('decodeBody', () => {
  it('drops a UTF-8 byte order mark at the start, and only there', () => {
    expect(decodeBody(Buffer.from('\uFEFF[1]'))).toEqual({ text: '[1]', invalidUtf8: false });
    expect(decodeBody(Buffer.from('["\uFEFF"]'))).toEqual({ text: '["\uFEFF"]', invalidUtf8: false });
    expect(decodeBody(Buffer.alloc(0))).toEqual({ text: '', invalidUtf8: false });
  });

  it('says when bytes were not UTF-8 (they became U+FFFD)', () => {
    expect(decodeBody(Buffer.from([0x5b, 0x22, 0xe9, 0x22, 0x5d]))).toEqual({ text: '["\uFFFD"]', invalidUtf8: true });
    expect(decodeBody(Buffer.from([0xef, 0xbb, 0xbf, 0x22, 0xe2, 0x82, 0x22]))).toEqual({ text: '"\uFFFD"', invalidUtf8: true });
    expect(decodeBody(Buffer.from('"Zoë €"'))).toEqual({ text: '"Zoë €"', invalidUtf8: false });
  });
});
