/**
 * The library's types, checked by the compiler: `npm run typecheck` compiles this file, so each
 * `@ts-expect-error` below must be an error and each expectTypeOf must hold. The tests only say so
 * at run time; the checking is tsc's.
 */
import type { LosslessNumber } from 'lossless-json';
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  NewsStatsClient,
  NewsStatsError,
  SandboxOptionError,
  type ArticleBase,
  type ArticleWithSourceContext,
  type JsonValue,
  type PersonLinkBase,
  type PersonLinkWithContext,
  type PersonStats,
  type ResponseInfo,
  type RunningSandbox,
  type SandboxOptions,
} from '../../../src/index.js';

/** Never called: its body is for the compiler. */
export async function typeChecks(client: NewsStatsClient, lossless: NewsStatsClient<'lossless'>) {
  // Context fields are in the type when includeContext is true or left out (the default), and not at
  // all when it is false. (Like every field that is not an identifier, one may be null or left out.)
  expectTypeOf(await client.people.links('p')).toEqualTypeOf<PersonLinkWithContext[]>();
  expectTypeOf((await client.people.links('p', { includeContext: true }))[0]!.articleTitle).toEqualTypeOf<string | null | undefined>();
  const bare = await client.people.links('p', { includeContext: false, limit: 5 });
  expectTypeOf(bare).toEqualTypeOf<PersonLinkBase[]>();
  // @ts-expect-error without context a link has no articleTitle
  void bare[0]!.articleTitle;
  const flag: boolean = Math.random() > 0.5;
  expectTypeOf((await client.people.links('p', { includeContext: flag }))[0]!.articleTitle).toEqualTypeOf<string | null | undefined>();
  expectTypeOf(await client.articles.recent()).toEqualTypeOf<ArticleWithSourceContext[]>();
  expectTypeOf(await client.articles.recent({ includeSourceContext: false })).toEqualTypeOf<ArticleBase[]>();

  // Fields whose elements the contract does not show are JSON values, not unknown.
  expectTypeOf<PersonStats['snippets']>().toEqualTypeOf<JsonValue[] | null | undefined>();
  expectTypeOf<PersonStats['countryRows']>().toEqualTypeOf<JsonValue[] | null | undefined>();
  const top = await lossless.people.top({ limit: 3 });
  expectTypeOf(top[0]!.mentionCount).toEqualTypeOf<LosslessNumber | null | undefined>();

  // A search needs something to search by.
  // @ts-expect-error at least one of q, personHash, fullName
  void client.people.search({});
  // @ts-expect-error filters alone are not enough
  void client.people.search({ limit: 5 });
  void client.people.search({ fullName: 'Ada', exactName: true });

  // The raw get() takes the query values a query can hold.
  void client.get('people/top', { limit: 3, fresh: true, startWeek: 202601n });
  expectTypeOf(await client.get('people/top')).toEqualTypeOf<unknown>();

  // withResponse() on every call.
  const { data, response } = await client.weeks.current().withResponse();
  expectTypeOf(data.currentWeek).toEqualTypeOf<number>();
  expectTypeOf(response).toEqualTypeOf<ResponseInfo>();
  const asPromise: Promise<PersonStats[]> = client.people.top();
  void asPromise;

  // Bulk exports are typed items in rank order.
  for await (const item of client.export.countryStats({ top: 3 })) {
    expectTypeOf(item.countryStats.countries?.[0]?.countryIso).toEqualTypeOf<string | null | undefined>();
    expectTypeOf(item.person.personHash).toEqualTypeOf<string>();
  }
  for await (const item of client.export.links({ top: 3, includeContext: false })) {
    expectTypeOf(item.links).toEqualTypeOf<PersonLinkBase[]>();
  }

  // The sandbox's types are the library's.
  const options: SandboxOptions = { rateLimit: 10 };
  expectTypeOf<RunningSandbox['url']>().toEqualTypeOf<string>();
  void options;

  // Test hooks are not options.
  // @ts-expect-error sleep is no option of the client
  void new NewsStatsClient({ baseUrl: 'https://stats.example.com', apiKey: 'k', sleep: async () => undefined });
  // @ts-expect-error random is no option of the client
  void new NewsStatsClient({ baseUrl: 'https://stats.example.com', apiKey: 'k', random: () => 0.5 });
}

describe('the library\'s types', () => {
  // typeChecks() above is never run: tsc checks it (npm run typecheck), and fails on any type it breaks.
  it('at run time, SandboxOptionError is a NewsStatsError', () => {
    expect(new SandboxOptionError('rateLimit', 'rateLimit must be an integer of at least 1, not 0')).toBeInstanceOf(NewsStatsError);
  });
});
