/**
 * The tap stopped at random points and run again from the last STATE it sent (#33: "resume from STATE
 * with no duplicate and no gap"), as Meltano does after a failed job: what a target commits (every
 * message before the last STATE it read), and then the resumed runs' messages, hold every record of a
 * run never stopped. Rankings and country stats come once; a link may come again (a resumed run asks
 * again for the people of the weeks after the bookmark, docs/sync.md "Messages"), under its key, and
 * none is missing. Each run is stopped after a random number of lines (SIGKILL, or SIGTERM with its
 * line), so no verdict depends on timing; the seed is in every failure (NEWSSTATS_HISTORY_SEED replays;
 * NEWSSTATS_HISTORY_SHOW=1 prints each history).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseLossless, stringify } from 'lossless-json';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { FIXED_NOW, sandbox, spawnCli, tempDir } from './harness.js';

let server: RunningSandbox;
beforeAll(async () => {
  // Answers 5-15 ms apart, so the tap's messages come over a few hundred milliseconds and a stop
  // after a number of lines falls inside a run, not after it.
  server = await sandbox({ now: FIXED_NOW, latencyMs: 10 });
  return () => server.close();
});

type Message = { type: string; stream?: string; record?: Record<string, unknown>; value?: unknown };

/** Lines that are whole JSON messages: a SIGKILL may cut the last one, which a target would not read. */
function messagesOf(stdout: string): Message[] {
  const lines = stdout.split('\n');
  if (!stdout.endsWith('\n')) lines.pop();
  return lines.filter((line) => line !== '').map((line) => parseLossless(line) as Message);
}

/** A record's identity: its stream and key properties (week and person; country; article). */
function keyOf(message: Message): string {
  const record = message.record!;
  const key = message.stream === 'links' ? [record.personHash, record.articleHash] : [record.week, record.personHash, record.countryId];
  return `${message.stream}:${stringify(key)}`;
}

function randomFrom(seed: number): () => number {
  let state = seed % 2147483648;
  return () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
}

describe('the tap stopped at random points and resumed from its last STATE', () => {
  const seed = Number(process.env.NEWSSTATS_HISTORY_SEED ?? Date.now() % 1_000_000);

  it('every record of a run never stopped arrives; rankings and country stats once', async () => {
    const dir = tempDir();
    const config = join(dir, 'config.json');
    writeFileSync(config, JSON.stringify({ base_url: server.url, api_key: server.key, start_week: 202638, streams: ['rankings', 'country_stats', 'links'], depth: 6, top: 3, links_limit: 5 }));
    const tap = (state: unknown, stopAfterLines?: number, signal: NodeJS.Signals = 'SIGKILL') => {
      if (state !== undefined) writeFileSync(join(dir, 'state.json'), stringify(state)!);
      return spawnCli(['tap', '--config', config, ...(state === undefined ? [] : ['--state', join(dir, 'state.json')])], {
        onSpawn: stopAfterLines === undefined ? undefined : (child) => {
          let lines = 0;
          // The harness reads stdout as text: a chunk is a string.
          child.stdout?.on('data', (chunk: string | Buffer) => {
            if (lines >= stopAfterLines) return;
            lines += String(chunk).split('\n').length - 1;
            if (lines >= stopAfterLines) child.kill(signal);
          });
        },
      });
    };
    const clean = await tap(undefined);
    expect(clean.code, clean.stderr).toBe(0);
    const all = messagesOf(clean.stdout);
    const want = new Set(all.filter((message) => message.type === 'RECORD').map(keyOf));
    expect(want.size).toBeGreaterThan(100);

    const random = randomFrom(seed);
    for (let history = 0; history < 3; history += 1) {
      const story = [`seed ${seed}, history ${history}:`];
      const got: string[] = [];
      let state: unknown;
      for (let run = 0; ; run += 1) {
        const stop = run < 3 ? 1 + Math.floor(random() * all.length) : undefined;
        const signal = random() < 0.7 ? 'SIGKILL' : 'SIGTERM';
        const result = await tap(state, stop, signal);
        const sent = messagesOf(result.stdout);
        const finished = result.code === 0;
        story.push(`  run ${run}${stop === undefined ? '' : ` (${signal} after ${stop} lines)`}: ${result.code ?? result.signal}, ${sent.length} messages`);
        if (!finished) expect(result.code === 143 || result.signal === 'SIGKILL' || result.signal === 'SIGTERM', `${story.join('\n')}\n${result.stderr}`).toBe(true);
        // What a target commits: every message up to the last STATE it read (all of a finished run).
        const lastState = sent.findLastIndex((message) => message.type === 'STATE');
        const committed = finished ? sent : sent.slice(0, lastState + 1);
        for (const message of committed) if (message.type === 'RECORD') got.push(keyOf(message));
        if (lastState >= 0) state = sent[lastState]!.value;
        if (finished) break;
      }
      if (process.env.NEWSSTATS_HISTORY_SHOW) console.log(story.join('\n'));
      const seen = new Set<string>();
      const twice = got.filter((key) => !key.startsWith('links:') && (seen.has(key) || !seen.add(key)));
      expect(twice, `rankings or country stats sent twice\n${story.join('\n')}`).toEqual([]);
      const arrived = new Set(got);
      expect([...want].filter((key) => !arrived.has(key)), `records missing\n${story.join('\n')}`).toEqual([]);
      expect([...arrived].filter((key) => !want.has(key)), `records no clean run sends\n${story.join('\n')}`).toEqual([]);
    }
  }, 120_000);
});
