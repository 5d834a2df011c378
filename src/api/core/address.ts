/**
 * Address building: where a request goes (the service's base URL, checked once), its query string and
 * the headers a call may add. Pure: no I/O, no undici, so the CLI's `config` command can check a base
 * URL without loading the transport.
 */
import type { LosslessNumber } from 'lossless-json';
import { ConfigurationError, InvalidParameterError } from '../errors.js';
import { API_ROOT } from '../types.js';

export type QueryScalar = string | number | boolean | bigint | LosslessNumber;
/** Query parameters; undefined and null are left out, arrays repeat the key. */
export type Query = Readonly<Record<string, QueryScalar | readonly QueryScalar[] | null | undefined>>;

/** Where requests go, split the way undici wants it; checked once at construction. */
export interface ServiceAddress {
  origin: string;
  /** Path under the origin where the service lives ('' for the root), no trailing slash. */
  pathPrefix: string;
  /** host:port, for messages. */
  hostPort: string;
  /** The service is on this machine: its traffic must never be sent through a proxy. */
  loopback: boolean;
}

/**
 * Checks and normalises the service base URL. The key travels in a header, so a plain-http URL would
 * put it on the wire in clear text: allowed only to loopback, or when the caller opts in.
 */
export function resolveServiceAddress(baseUrl: string | undefined, allowInsecureHttp: boolean): ServiceAddress {
  const text = baseUrl?.trim() ?? '';
  if (text === '') {
    throw new ConfigurationError('baseUrl', 'missing', 'no base URL is set: give baseUrl, the service base, e.g. https://stats.example.com');
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ConfigurationError('baseUrl', 'invalid', `base URL ${JSON.stringify(text)} is not a URL: write it in full, e.g. https://stats.example.com`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    // `localhost:8080` parses as scheme "localhost:", so name the whole text rather than the scheme.
    throw new ConfigurationError('baseUrl', 'invalid', `base URL ${JSON.stringify(text)} must start with https:// (or http:// for loopback)`);
  }
  if (url.username !== '' || url.password !== '') {
    // Credentials in the URL would end up in logs and messages; the key has its own setting.
    throw new ConfigurationError('baseUrl', 'invalid', 'base URL must not contain a user name or password');
  }
  if (url.search !== '' || url.hash !== '') {
    throw new ConfigurationError('baseUrl', 'invalid', 'base URL must not contain a query (?) or fragment (#)');
  }
  if (url.protocol === 'http:' && !allowInsecureHttp && !isLoopbackHost(url.hostname)) {
    throw new ConfigurationError('baseUrl', 'insecure',
      `refusing to send the API key over plain http to ${url.host}: use an https:// base URL, or set allowInsecureHttp`);
  }
  let pathPrefix = url.pathname.replace(/\/+$/, '');
  // People paste the API root as often as the service base; both mean the same service.
  if (pathPrefix.endsWith(API_ROOT)) pathPrefix = pathPrefix.slice(0, -API_ROOT.length);
  const port = url.port !== '' ? url.port : url.protocol === 'https:' ? '443' : '80';
  return { origin: url.origin, pathPrefix, hostPort: `${url.hostname}:${port}`, loopback: isLoopbackHost(url.hostname) };
}

const IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;

/** 127.0.0.0/8, ::1 and localhost: traffic that never leaves the machine. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  if (host === 'localhost' || host === '::1' || host === '[::1]') return true;
  return IPV4.test(host) && host.startsWith('127.');
}

/** Encodes a query the same way for every value type; LosslessNumber and bigint keep their digits. */
export function buildQueryString(query: Query | undefined): string {
  if (!query) return '';
  const parts: string[] = [];
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    const values: readonly QueryScalar[] = Array.isArray(value) ? (value as readonly QueryScalar[]) : [value as QueryScalar];
    for (const item of values) {
      parts.push(`${encodeURIComponent(name)}=${encodeURIComponent(queryValueText(item))}`);
    }
  }
  return parts.length === 0 ? '' : `?${parts.join('&')}`;
}

function queryValueText(value: QueryScalar): string {
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : invalidQueryNumber(value);
  return value.toString();
}

function invalidQueryNumber(value: number): never {
  throw new TypeError(`query value ${value} is not a finite number`);
}

/**
 * Headers a call may not set: the key is the client's to send (and to keep out of logs), Accept and
 * User-Agent are the client's (docs/library.md promises a call cannot replace them), and the others are
 * the connection's, which the transport manages.
 */
const REFUSED_HEADERS = new Set([
  'x-api-key', 'accept', 'user-agent',
  'host', 'content-length', 'transfer-encoding', 'connection', 'keep-alive', 'upgrade',
]);

/** A call's own headers, names in lower case; InvalidParameterError for one it may not send. */
export function callHeaders(headers: Readonly<Record<string, string | undefined>> | undefined): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    const lower = name.toLowerCase();
    if (!/^[!#$%&'*+.^_`|~0-9a-z-]+$/.test(lower)) throw new InvalidParameterError('headers', `${JSON.stringify(name)} is not a header name`);
    if (REFUSED_HEADERS.has(lower)) throw new InvalidParameterError('headers', `the ${lower} header is the client's to send; a call cannot set it`);
    // Left out, as an option may be (exactOptionalPropertyTypes): { 'x-trace': maybeTrace }.
    if (value === undefined) continue;
    if (typeof value !== 'string' || /[\r\n\0]/.test(value)) throw new InvalidParameterError('headers', `the ${lower} header's value must be a string on one line`);
    result[lower] = value;
  }
  return result;
}
