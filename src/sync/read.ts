/**
 * Reads a stream's rows from the service: the one place that knows which requests make a partition.
 * Per-person requests run at most `concurrency` at once and hand rows on in rank order
 * (forEachInOrder, as `export` does), so a partition's rows, and so its bytes, do not depend on timing.
 */
import type { NewsStatsClient } from '../api/client.js';
import type { PeopleTopParams } from '../api/types.js';
import { forEachInOrder } from '../api/in-order.js';
import type { Row } from '../output/view.js';
import { ContractViolationError } from './failures.js';
import { STREAMS, ledRow, type StreamName } from './streams.js';

/** Identifier fields sent as text: a value that is not well-formed text names no one. */
const TEXT_IDENTIFIERS = ['personHash'] as const;

/** U+FFFD, or a surrogate without its pair. */
const NOT_TEXT = /\uFFFD|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Refuses a row whose text identifier carries U+FFFD (invalid UTF-8 as decoded) or a lone surrogate. */
export function checkIdentifiers(row: Row, where: string): Row {
  for (const field of TEXT_IDENTIFIERS) {
    const value = row[field];
    if (typeof value === 'string' && NOT_TEXT.test(value)) {
      throw new ContractViolationError(`${where}: ${field} ${JSON.stringify(value)} is not valid text (invalid UTF-8 from the service); the partition is not recorded`);
    }
  }
  return row;
}

/** The ranking filters (people top's query less its weeks and limit). */
export type RankingFilters = Omit<PeopleTopParams, 'startWeek' | 'endWeek' | 'limit'>;

export interface StreamQuery {
  /** People per weekly ranking (rankings). */
  depth: number;
  /** People per week whose country stats and links are read. */
  top: number;
  /** Links per person. */
  linksLimit: number;
  filters: RankingFilters;
  concurrency: number;
}

/** What decides a partition's contents, as the state records it. */
export function queryRecord(query: StreamQuery): Record<string, string | number | boolean> {
  const record: Record<string, string | number | boolean> = { depth: query.depth, top: query.top, linksLimit: query.linksLimit };
  for (const [key, value] of Object.entries(query.filters)) if (value !== undefined) record[key] = typeof value === 'bigint' ? value.toString() : value;
  return record;
}

export type Emit = (row: Row) => Promise<void>;

/** What a row already emitted (a link listed twice for one person) hands back instead of emitting again. */
const ALREADY_EMITTED: Promise<void> = Promise.resolve();

/**
 * Links asked once a person a run. The links endpoint takes no week: a person in several weeks' top
 * gets the same answer each time (of 25,000 links rows a 25-week sync fetched, 5,355 were kept). The
 * caller says whose links it already holds (merged or waiting to be) and is told whom a week asked;
 * it adds those to `held` only once that week's rows are its own, so a week that fails leaves its
 * people to be asked again.
 */
export interface LinksOnce {
  /** People (personHash) whose links this run holds: not asked again. */
  held: ReadonlySet<string>;
  /** Filled with the people a week's links were asked for. */
  asked: string[];
}

/** Where a reader counts the requests it sends (retries not counted): a run's summary, read live. */
export interface RequestCount {
  requests: number;
}

export class StreamReader {
  #ranking: { week: number; rows: Promise<Row[]> } | undefined;

  constructor(
    private readonly client: NewsStatsClient<'lossless'>,
    private readonly query: StreamQuery,
    /** The weekly streams of this run: the ranking is read once a week, as deep as they need. */
    private readonly streams: readonly StreamName[],
    /** Counted as each request is sent, so a run stopped mid-partition still says what it sent. */
    readonly count: RequestCount = { requests: 0 },
  ) {}

  /** One week's ranking, read once however many streams of that week use it. */
  #rankingOf(week: number): Promise<Row[]> {
    if (this.#ranking?.week !== week) {
      const depth = this.streams.includes('rankings') ? this.query.depth : 0;
      const top = this.streams.some((stream) => stream === 'country_stats' || stream === 'links') ? this.query.top : 0;
      this.count.requests += 1;
      const rows = (this.client.people.top({ ...this.query.filters, startWeek: week, endWeek: week, limit: Math.max(depth, top, 1) }) as Promise<Row[]>)
        .then((people) => people.map((person) => checkIdentifiers(person, `rankings week=${week}`)));
      this.#ranking = { week, rows };
    }
    return this.#ranking.rows;
  }

  async #perPerson(week: number, fetchRows: (person: Row) => Promise<Row[]>, emit: Emit, skip?: ReadonlySet<string>): Promise<Row[]> {
    const people = (await this.#rankingOf(week)).slice(0, this.query.top).filter((person) => !skip?.has(String(person.personHash)));
    await forEachInOrder(people, this.query.concurrency, (person) => {
      this.count.requests += 1;
      return fetchRows(person);
    }, async (rows) => {
      for (const row of rows) await emit(row);
    });
    return people;
  }

  /** The rows of one weekly stream's partition; for links, with `once`, only of people not yet held. */
  async weekly(stream: StreamName, week: number, emit: Emit, once?: LinksOnce): Promise<void> {
    switch (stream) {
      case 'rankings':
        for (const row of (await this.#rankingOf(week)).slice(0, this.query.depth)) await emit(row);
        return;
      case 'country_stats':
        await this.#perPerson(week, async (person) => {
          const stats = (await this.client.people.countryStats(String(person.personHash), { startWeek: week, endWeek: week })) as Row;
          // The person and the weeks are the ranking's and the request's, whatever a country row adds.
          const personHash = String(person.personHash);
          const { startWeek, endWeek } = stats;
          // Built as one literal where the country row names none of the lead's fields (every answer so
          // far): made by ledRow for every row, a 25-week sync took 7% longer on Node 20.
          return ((stats.countries as Row[] | undefined) ?? []).map((country) => (
            country.rank === undefined && country.fullName === undefined && country.personHash === undefined && country.startWeek === undefined && country.endWeek === undefined
              ? { rank: person.rank, fullName: person.fullName, personHash, startWeek, endWeek, ...country }
              : ledRow({ rank: person.rank, fullName: person.fullName, personHash, startWeek, endWeek }, country)));
        }, emit);
        return;
      case 'links': {
        // A person's links are read once a week; an article listed twice for them is kept once.
        // The articles seen, by person: a key string made of the two for every row was garbage.
        const seen = new Map<string, Set<string>>();
        const asked = await this.#perPerson(week, async (person) => {
          const links = (await this.client.people.links(String(person.personHash), { limit: this.query.linksLimit, includeContext: true })) as Row[];
          // Led by the person's name; not their rank, which is the finding week's, not the link's.
          return links.map((link) => ({ fullName: person.fullName, ...link }));
        }, (row) => {
          const personHash = String(row.personHash);
          const articleHash = String(row.articleHash);
          let articles = seen.get(personHash);
          if (articles === undefined) seen.set(personHash, (articles = new Set()));
          if (articles.has(articleHash)) return ALREADY_EMITTED;
          articles.add(articleHash);
          // emit's own promise, not an async function's around it: one promise a row fewer.
          return emit(row);
        }, once?.held);
        once?.asked.push(...asked.map((person) => String(person.personHash)));
        return;
      }
      default:
        throw new Error(`${stream} is not a weekly stream`);
    }
  }

  /** The rows of a reference table's snapshot. */
  async reference(stream: StreamName, emit: Emit): Promise<void> {
    if (STREAMS[stream].weekly) throw new Error(`${stream} is a weekly stream`);
    this.count.requests += 1;
    const rows = (stream === 'people' ? await this.client.people.list() : stream === 'countries' ? await this.client.countries.list() : await this.client.sources.list()) as Row[];
    for (const row of rows) await emit(checkIdentifiers(row, stream));
  }
}
