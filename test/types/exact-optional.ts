/**
 * A consumer's strict project (exactOptionalPropertyTypes): every option that may be left out also
 * takes `undefined`, so settings can be forwarded as they are instead of through conditional spreads.
 * Compiled by `npm run typecheck` (test/types/tsconfig.json); nothing here runs.
 */
import { Agent } from 'undici';
import { NewsStatsClient, type CallOptions, type ClientOptions } from '../../src/index.js';

declare const maybeNumber: number | undefined;
declare const maybeBoolean: boolean | undefined;
declare const maybeString: string | undefined;
declare const maybeSignal: AbortSignal | undefined;

const options: ClientOptions = {
  baseUrl: 'https://stats.example.com',
  apiKey: 'key',
  timeoutMs: maybeNumber,
  totalTimeoutMs: maybeNumber,
  maxRetries: maybeNumber,
  maxConnections: maybeNumber,
  maxRequestsPerSecond: maybeNumber,
  userAgent: maybeString,
  allowInsecureHttp: maybeBoolean,
  onEvent: undefined,
  env: undefined,
  dispatcher: undefined,
};
const client = new NewsStatsClient(options);
const call: CallOptions = { signal: maybeSignal, timeoutMs: maybeNumber, totalTimeoutMs: maybeNumber, maxRetries: maybeNumber, headers: { 'x-trace': maybeString } };

export async function forwarded(): Promise<void> {
  await client.weeks.current({ signal: undefined });
  await client.people.top({ limit: maybeNumber, startWeek: maybeNumber, endWeek: maybeNumber, fresh: maybeBoolean, newsCategory: maybeString }, call);
  await client.people.search({ q: 'merkel', limit: maybeNumber, exactName: maybeBoolean });
  await client.people.links('abc', { limit: maybeNumber, includeContext: undefined }, call);
  await client.articles.recent({ limit: maybeNumber, includeSourceContext: undefined });
  for await (const item of client.export.countryStats({ top: 5, concurrency: maybeNumber, maxBufferedBytes: maybeNumber, onRanking: undefined }, call)) void item;
  for await (const item of client.export.links({ top: 5, limit: maybeNumber, includeContext: undefined })) void item;
}

/** An undici Agent of the caller's own is a dispatcher the options take (their type is structural). */
export const withAgent = new NewsStatsClient({ baseUrl: 'https://stats.example.com', apiKey: 'key', dispatcher: new Agent() });
