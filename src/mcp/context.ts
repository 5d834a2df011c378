/**
 * What the tools are handed. The CLI command (src/cli/commands/mcp.ts) builds `McpDependencies` from
 * its own run (the client of the profile, key, base URL or --sandbox; its country matching and cache;
 * the movers join), so nothing under src/mcp/ reaches into the CLI; each call adds its cancellation
 * and progress (`ToolCall`).
 */
import type { NewsStatsClient } from '../api/client.js';
import type { CallOptions } from '../api/resources/base.js';
import type { WeekWindow } from '../shared/weeks.js';

/** One row of `people movers`, as the CLI's join makes it (src/cli/movers.ts). */
export interface MoverRecord {
  rank: unknown;
  previousRank: unknown;
  rankChange: unknown;
  status: string;
  leftTop: boolean;
  personHash: string;
  fullName: unknown;
  mentionCount: unknown;
  previousMentionCount: unknown;
  mentionChange: unknown;
  dominance: unknown;
  previousDominance: unknown;
  dominanceChange: unknown;
  window: string;
  previousWindow: string;
}

export interface MoversJoin {
  joinRankings(input: {
    current: ReadonlyArray<Record<string, unknown>>;
    previous: ReadonlyArray<Record<string, unknown>>;
    window: WeekWindow;
    comparison: WeekWindow;
    limit: number;
  }): readonly MoverRecord[];
  /** As many weeks as `window`, ending the week before it starts. */
  previousWindow(window: WeekWindow): WeekWindow;
}

export interface McpDependencies {
  /** The client in lossless mode (every digit as sent), made on first use; retries and pacing are its own. */
  client(): Promise<NewsStatsClient<'lossless'>>;
  /** A country's id from an id, ISO code, name or slug; an error with suggestions when none matches. */
  countryId(text: string): Promise<number | string>;
  movers(): Promise<MoversJoin>;
  /** The text with the API key masked: every text that leaves the server passes through it. */
  redact(text: string): string;
  /**
   * A message with each command it suggests (`newsstats auth login`) given the flags this server was
   * started with (--profile, --base-url, --sandbox), so following it fixes this server's profile.
   */
  keepContext(message: string): string;
  /** newsstats' version, for the server's name in the handshake. */
  version: string;
}

/** One tool call: its cancellation, and progress for a client that asked for it. */
export interface ToolCall {
  readonly signal: AbortSignal;
  /** Per-request options: the call's signal reaches every attempt and wait of the library. */
  readonly options: CallOptions;
  /** Reports `done` of `total` steps; nothing when the client sent no progressToken. */
  progress(done: number, total: number, message?: string): Promise<void>;
}
