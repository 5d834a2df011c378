/**
 * The transport a client uses unless given `fetch`, where undici does not run: the runtime's own
 * fetch (Deno, Bun, Cloudflare Workers, browsers). Chosen by package.json "imports"; see
 * default-transport.ts.
 */
import { ConfigurationError } from '../errors.js';
import { FetchTransport, type FetchFunction } from './fetch-transport.js';
import type { Transport, TransportSettings } from './transport-contract.js';

export const DEFAULT_TRANSPORT = 'fetch';

export function defaultTransport(settings: TransportSettings, dispatcher: unknown): Transport {
  if (dispatcher !== undefined) throw new ConfigurationError('fetch', 'invalid', 'dispatcher is an undici option: on this runtime the client uses fetch; pass `fetch` instead');
  const fetchFunction = (globalThis as { fetch?: FetchFunction }).fetch;
  if (typeof fetchFunction !== 'function') throw new ConfigurationError('fetch', 'missing', 'this runtime has no global fetch: pass one as the `fetch` option');
  // Called as a plain function: Workers' fetch throws "Illegal invocation" when called on another object.
  return new FetchTransport(settings, (input, init) => fetchFunction(input, init));
}
