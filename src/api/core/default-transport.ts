/**
 * The transport a client uses unless given `fetch`: undici on Node. The library's ES module build
 * imports this module through the package's `#newsstats/default-transport` (package.json "imports"),
 * which Deno, Bun, Workers and browsers resolve to default-transport-fetch.ts instead, so a bundle for
 * them never holds undici or Node's built-ins (scripts/build.mjs).
 */
import type { Dispatcher } from 'undici';
import type { UndiciDispatcher } from '../options.js';
import type { Transport, TransportSettings } from './transport-contract.js';
import { UndiciTransport } from './undici-transport.js';

export const DEFAULT_TRANSPORT = 'undici';

export function defaultTransport(settings: TransportSettings, dispatcher: UndiciDispatcher | undefined): Transport {
  // The structural type is what the options promise; undici's own is what it is.
  return new UndiciTransport(settings, dispatcher as Dispatcher | undefined);
}
