/**
 * The proxy variables, read as curl reads them (issue #21 item 9): a missing scheme is http://, and
 * anything unusable is a ConfigurationError naming the variable and the problem, never undici's
 * "Invalid URL" on the first request. NO_PROXY decides "direct" here, so messages can tell.
 */
import { describe, expect, test } from 'vitest';
import { ConfigurationError } from '../../../src/api/errors.js';
import { noProxyMatches, parseProxyUrl, proxyFor } from '../../../src/api/core/proxy.js';

function refusal(variable: string, value: string): ConfigurationError {
  try {
    parseProxyUrl(variable, value);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigurationError);
    return error as ConfigurationError;
  }
  throw new Error(`${value} was accepted`);
}

describe('parseProxyUrl', () => {
  test.each([
    ['proxy.corp.example:3128', 'http://proxy.corp.example:3128/', 'proxy.corp.example:3128'],
    ['  localhost:8080 ', 'http://localhost:8080/', 'localhost:8080'],
    ['http://proxy.corp.example:3128', 'http://proxy.corp.example:3128/', 'proxy.corp.example:3128'],
    ['HTTPS://Proxy.Example', 'https://proxy.example/', 'proxy.example'],
    ['http://user:pa%40ss@proxy:8080/', 'http://user:pa%40ss@proxy:8080/', 'proxy:8080'],
    ['[::1]:3128', 'http://[::1]:3128/', '[::1]:3128'],
    ['socks5://127.0.0.1:1080', 'socks5://127.0.0.1:1080', '127.0.0.1:1080'],
  ])('%s is the proxy %s', (value, url, host) => {
    expect(parseProxyUrl('HTTPS_PROXY', value)).toEqual({ url, host, variable: 'HTTPS_PROXY' });
  });

  test.each([
    ['http://proxy:99999', /the port "99999" is not a number from 1 to 65535/],
    ['http://proxy:abc', /the port "abc" is not a number from 1 to 65535/],
    ['proxy:0', /the port "0" is not a number from 1 to 65535/],
    ['ftp://proxy:21', /the scheme "ftp" is not supported/],
    ['http://', /it names no host/],
    ['::', /it is not a URL/],
    ['http://exa mple:80', /it is not a URL/],
  ])('%s is refused: %s', (value, problem) => {
    const error = refusal('https_proxy', value);
    expect(error.setting).toBe('proxy');
    expect(error.problem).toBe('invalid');
    expect(error.message).toMatch(/^https_proxy="/);
    expect(error.message).toMatch(problem);
    expect(error.message).not.toContain('\n');
  });

  test('a refusal never shows the proxy\'s credentials', () => {
    const error = refusal('HTTP_PROXY', 'http://user:s3cret@proxy:abc');
    expect(error.message).not.toContain('s3cret');
    expect(error.message).not.toContain('user');
    expect(error.message).toContain('proxy:abc');
  });
});

describe('proxyFor', () => {
  test('https prefers HTTPS_PROXY, lower case first, and falls back to HTTP_PROXY; http takes HTTP_PROXY only', () => {
    const env = { HTTPS_PROXY: 'upper:1', https_proxy: 'lower:2', HTTP_PROXY: 'plain:3' };
    expect(proxyFor('https://stats.example', env)?.host).toBe('lower:2');
    expect(proxyFor('https://stats.example', { HTTP_PROXY: 'plain:3' })).toMatchObject({ host: 'plain:3', variable: 'HTTP_PROXY' });
    expect(proxyFor('http://stats.example', env)).toMatchObject({ host: 'plain:3', variable: 'HTTP_PROXY' });
    expect(proxyFor('http://stats.example', { HTTPS_PROXY: 'upper:1' })).toBeUndefined();
    expect(proxyFor('https://stats.example', { HTTPS_PROXY: '', https_proxy: ' ' })).toBeUndefined();
  });

  test('only the variable in use is checked: a broken HTTP_PROXY does not stop an https request through HTTPS_PROXY', () => {
    expect(proxyFor('https://stats.example', { HTTPS_PROXY: 'good:1', HTTP_PROXY: 'http://bad:abc' })?.host).toBe('good:1');
    expect(() => proxyFor('http://stats.example', { HTTPS_PROXY: 'good:1', HTTP_PROXY: 'http://bad:abc' })).toThrow(/^HTTP_PROXY=/);
  });

  test('a host NO_PROXY names goes direct', () => {
    expect(proxyFor('https://api.stats.example', { HTTPS_PROXY: 'p:1', NO_PROXY: 'other.example, .stats.example' })).toBeUndefined();
    expect(proxyFor('https://api.stats.example', { HTTPS_PROXY: 'p:1', no_proxy: '*' })).toBeUndefined();
    expect(proxyFor('https://api.stats.example', { HTTPS_PROXY: 'p:1', NO_PROXY: 'stats.example:8443' })?.host).toBe('p:1');
    expect(proxyFor('https://api.stats.example:8443', { HTTPS_PROXY: 'p:1', NO_PROXY: 'stats.example:8443' })).toBeUndefined();
  });
});

describe('noProxyMatches', () => {
  test.each([
    ['stats.example', 'stats.example', 443, true],
    ['stats.example', 'api.stats.example', 443, true],
    ['*.stats.example', 'api.stats.example', 443, true],
    ['stats.example', 'notstats.example', 443, false],
    ['STATS.example:443', 'stats.example', 443, true],
    ['stats.example:80', 'stats.example', 443, false],
    ['a b,c', 'c', 443, true],
    ['', 'stats.example', 443, false],
  ])('NO_PROXY=%j, host %s:%i: %s', (noProxy, host, port, bypassed) => {
    expect(noProxyMatches(noProxy, host, port)).toBe(bypassed);
  });
});

describe('the environment the client reads them from', () => {
  test('the `env` option, not process.env: a broken proxy there is refused, one in process.env is not read', async () => {
    const { NewsStatsClient } = await import('../../../src/api/client.js');
    const saved = process.env.HTTPS_PROXY;
    process.env.HTTPS_PROXY = 'http://proxy.corp.example:abc';
    try {
      expect(() => new NewsStatsClient({ baseUrl: 'https://stats.example', apiKey: 'k-0001', env: {} })).not.toThrow();
      expect(() => new NewsStatsClient({ baseUrl: 'https://stats.example', apiKey: 'k-0001' })).toThrow(/^HTTPS_PROXY=/);
      expect(() => new NewsStatsClient({ baseUrl: 'https://stats.example', apiKey: 'k-0001', env: { https_proxy: 'http://p:0' } })).toThrow(/^https_proxy=/);
    } finally {
      if (saved === undefined) delete process.env.HTTPS_PROXY;
      else process.env.HTTPS_PROXY = saved;
    }
  });
});
