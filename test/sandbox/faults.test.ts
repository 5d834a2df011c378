/**
 * The sandbox's injected faults (fail rate, latency, rate limit) and its request log, over real
 * HTTP. Each server here is small and short-lived; the model is shared through the seed and now.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { get as httpGet } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { NewsStatsError } from '../../src/api/errors.js';
import { problemDetailsSchema } from '../../src/api/types.js';
import { SandboxOptionError, startSandbox, type SandboxOptions } from '../../src/sandbox/server.js';
import { createSandboxModel } from '../../src/sandbox/data/index.js';
import { client, expectMatchesSchema, num } from './helpers.js';

const NOW = new Date('2026-03-04T12:00:00Z');
// Faults do not depend on the data: one real model, generated once, serves every sandbox here.
const model = createSandboxModel({ seed: 1, now: NOW });
const PATH = '/api/data/countries';

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function sandboxWith(options: SandboxOptions) {
  const sandbox = await startSandbox({ now: NOW, model, ...options });
  const http = client(sandbox.url, sandbox.key);
  cleanups.push(async () => {
    await http.close();
    await sandbox.close();
  });
  return { sandbox, http };
}

type Outcome = number | 'dropped';

/** Sequential requests (arrival order decides the faults), each as its status or 'dropped'. */
async function outcomes(http: ReturnType<typeof client>, count: number, path = PATH): Promise<Outcome[]> {
  const seen: Outcome[] = [];
  for (let index = 0; index < count; index++) {
    try {
      seen.push((await http.get(path)).status);
    } catch {
      seen.push('dropped');
    }
  }
  return seen;
}

describe('failRate', () => {
  it('failRate=1 fails every authenticated request with 500, 503 (Retry-After: 0) or a dropped connection', async () => {
    const { http } = await sandboxWith({ seed: 3, failRate: 1 });
    const seen = await outcomes(http, 30);
    for (const outcome of seen) expect([500, 503, 'dropped']).toContain(outcome);
    // Each kind shows up: a client must be tested against all three.
    expect(new Set(seen)).toEqual(new Set([500, 503, 'dropped']));

    let unavailable;
    let error;
    for (let attempt = 0; attempt < 30 && !(unavailable && error); attempt++) {
      try {
        const response = await http.get(PATH);
        if (response.status === 503) unavailable = response;
        if (response.status === 500) error = response;
      } catch {
        // dropped: try again
      }
    }
    expect(unavailable!.headers['retry-after']).toBe('0');
    expectMatchesSchema(unavailable!.body, problemDetailsSchema, '503 body');
    expect(num((unavailable!.body as Record<string, unknown>).status)).toBe(503);
    expectMatchesSchema(error!.body, problemDetailsSchema, '500 body');
    expect(num((error!.body as Record<string, unknown>).status)).toBe(500);
  });

  it('401s are never faulted: a wrong key is told so at once', async () => {
    const { http } = await sandboxWith({ seed: 3, failRate: 1, latencyMs: 2_000 });
    for (let index = 0; index < 5; index++) {
      const started = performance.now();
      expect((await http.get(PATH, { key: 'wrong' })).status).toBe(401);
      // Under the 2 s the faults would add, with room for a loaded machine.
      expect(performance.now() - started).toBeLessThan(1_500);
    }
  });

  it('failRate=0.3 fails some requests; the same seed gives the same sequence, another seed another', async () => {
    const first = await sandboxWith({ seed: 11, failRate: 0.3 });
    const second = await sandboxWith({ seed: 11, failRate: 0.3 });
    const other = await sandboxWith({ seed: 12, failRate: 0.3 });
    const firstSeen = await outcomes(first.http, 60);
    const secondSeen = await outcomes(second.http, 60);
    const otherSeen = await outcomes(other.http, 60);
    const failures = firstSeen.filter((outcome) => outcome !== 200).length;
    expect(failures).toBeGreaterThanOrEqual(6);
    expect(failures).toBeLessThanOrEqual(30);
    expect(secondSeen).toEqual(firstSeen);
    expect(otherSeen).not.toEqual(firstSeen);
    // Answers that do get through are the real ones.
    expect(firstSeen.filter((outcome) => outcome === 200).length).toBe(60 - failures);
  });

  it('failRate=0 never fails', async () => {
    const { http } = await sandboxWith({ seed: 11 });
    expect(new Set(await outcomes(http, 40))).toEqual(new Set([200]));
  });
});

describe('latency', () => {
  it('latencyMs delays each answer by latencyMs +-50%', async () => {
    const { http } = await sandboxWith({ seed: 5, latencyMs: 80 });
    const times: number[] = [];
    for (let index = 0; index < 8; index++) {
      const started = performance.now();
      expect((await http.get(PATH)).status).toBe(200);
      times.push(performance.now() - started);
    }
    for (const time of times) {
      // The floor only: a busy machine can only make answers later. The upper bound is in bench/timing.mjs.
      expect(time).toBeGreaterThanOrEqual(38); // 0.5 x 80, less timer rounding
    }
    const mean = times.reduce((sum, time) => sum + time, 0) / times.length;
    expect(mean).toBeGreaterThan(50);
    // Not a fixed delay: the jitter spreads the times.
    expect(Math.max(...times) - Math.min(...times)).toBeGreaterThan(5);
  });
});

describe('rateLimit', () => {
  it('more than N requests in a second get 429 with Retry-After: 1; after a second they pass again', async () => {
    const { http } = await sandboxWith({ seed: 5, rateLimit: 5 });
    const seen: number[] = [];
    let limited;
    for (let index = 0; index < 8; index++) {
      const response = await http.get(PATH);
      seen.push(response.status);
      if (response.status === 429) limited = response;
    }
    expect(seen).toEqual([200, 200, 200, 200, 200, 429, 429, 429]);
    expect(limited!.headers['retry-after']).toBe('1');
    expectMatchesSchema(limited!.body, problemDetailsSchema, '429 body');
    expect((limited!.body as Record<string, unknown>).title).toContain('at most 5 a second');
    await new Promise((resolve) => setTimeout(resolve, 1_050));
    expect((await http.get(PATH)).status).toBe(200);
  });
});

describe('request log', () => {
  it('appends one JSON line per request with time, method, path, query, status, ms, and never the key', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'newsstats-sandbox-log-'));
    cleanups.push(() => rm(directory, { recursive: true, force: true }));
    const logFile = join(directory, 'requests.ndjson');
    const key = 'very-secret-sandbox-key';
    const sandbox = await startSandbox({ now: NOW, model, key, logFile });
    const http = client(sandbox.url, key);
    await http.get('/api/data/people/top?limit=3&sortBy=dominance');
    await http.get('/api/data/people', { key: 'wrong-key' });
    await http.get('/api/data/people', { key: null });
    await http.get('/api/data/no-such-endpoint');
    await http.get(`/api/data/countries?token=${key}`);
    await http.get('/api/data/countries', { method: 'HEAD' });
    await http.close();
    await sandbox.close();

    const text = await readFile(logFile, 'utf8');
    expect(text).not.toContain(key);
    expect(text.endsWith('\n')).toBe(true);
    const lines = text.trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toHaveLength(6);
    for (const line of lines) {
      expect(Object.keys(line)).toEqual(['time', 'method', 'path', 'query', 'status', 'ms', 'inFlight']);
      expect(line.inFlight).toBe(1); // one request after another
      expect(line.time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      expect(typeof line.ms).toBe('number');
      expect(line.ms as number).toBeGreaterThanOrEqual(0);
    }
    expect(lines.map((line) => [line.method, line.path, line.status])).toEqual([
      ['GET', '/api/data/people/top', 200],
      ['GET', '/api/data/people', 401],
      ['GET', '/api/data/people', 401],
      ['GET', '/api/data/no-such-endpoint', 404],
      ['GET', '/api/data/countries', 200],
      ['HEAD', '/api/data/countries', 200],
    ]);
    expect(lines[0]!.query).toEqual({ limit: '3', sortBy: 'dominance' });
    expect(lines[4]!.query).toEqual({ token: '[redacted]' });
  });

  it('counts requests in flight itself: two at once are 1 and 2, and a client that hangs up stops counting', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'newsstats-sandbox-log-'));
    cleanups.push(() => rm(directory, { recursive: true, force: true }));
    const logFile = join(directory, 'requests.ndjson');
    const key = 'inflight-key';
    // Every answer waits 50-150 ms, so both requests below arrive before either is answered.
    const sandbox = await startSandbox({ now: NOW, model, key, logFile, latencyMs: 100 });
    const http = client(sandbox.url, key);
    await Promise.all([http.get('/api/data/countries'), http.get('/api/data/weeks/current')]);
    // A client that hangs up while its answer waits: no line is logged for it, and it is not open.
    await new Promise<void>((resolve) => {
      const hungUp = httpGet(`${sandbox.url}/api/data/countries`, { headers: { 'x-api-key': key } });
      hungUp.on('error', () => resolve());
      setTimeout(() => hungUp.destroy(), 10);
    });
    await new Promise((resolve) => setTimeout(resolve, 250));
    await http.get('/api/data/countries');
    await http.close();
    await sandbox.close();

    const lines = (await readFile(logFile, 'utf8')).trimEnd().split('\n').map((line) => JSON.parse(line) as { inFlight: number });
    expect(lines).toHaveLength(3);
    expect(lines.slice(0, 2).map((line) => line.inFlight).sort()).toEqual([1, 2]);
    expect(lines[2]!.inFlight).toBe(1);
  });

  it('logs injected faults, a dropped connection with status null', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'newsstats-sandbox-log-'));
    cleanups.push(() => rm(directory, { recursive: true, force: true }));
    const logFile = join(directory, 'faults.ndjson');
    const sandbox = await startSandbox({ now: NOW, model, seed: 3, failRate: 1, rateLimit: 1000, logFile });
    const http = client(sandbox.url, sandbox.key);
    const seen = await outcomes(http, 12);
    await http.close();
    await sandbox.close();
    const lines = (await readFile(logFile, 'utf8')).trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    const faultOf: Record<string, string> = { '500': 'error', '503': 'unavailable', dropped: 'dropped' };
    expect(lines.map((line) => [line.status, line.fault])).toEqual(
      seen.map((outcome) => [outcome === 'dropped' ? null : outcome, faultOf[String(outcome)]]),
    );
  });
});

describe('options', () => {
  it('rejects bad option values with SandboxOptionError naming the option', async () => {
    const cases: Array<[SandboxOptions, RegExp]> = [
      [{ failRate: 1.5 }, /^failRate must be a number from 0 to 1, not 1.5$/],
      [{ failRate: Number.NaN }, /failRate/],
      [{ latencyMs: -1 }, /latencyMs/],
      [{ rateLimit: 0 }, /rateLimit/],
      [{ rateLimit: 2.5 }, /rateLimit/],
      [{ port: 70_000 }, /port/],
      [{ key: 'has space' }, /key/],
      [{ key: '' }, /key/],
      [{ seed: 1.5 }, /seed/],
      [{ now: new Date('nope') }, /now/],
      [{ logFile: '' }, /logFile/],
    ];
    for (const [options, message] of cases) {
      const attempt = startSandbox({ now: NOW, model, ...options });
      await expect(attempt).rejects.toBeInstanceOf(SandboxOptionError);
      await expect(attempt).rejects.toBeInstanceOf(NewsStatsError);
      await expect(attempt).rejects.toThrow(message);
      // The library's message names its options, never a CLI flag.
      await expect(attempt).rejects.not.toThrow(/--/);
    }
  });

  it('a port in use or a foreign host is a readable option error', async () => {
    const { sandbox } = await sandboxWith({ seed: 1 });
    const port = Number(new URL(sandbox.url).port);
    const attempt = startSandbox({ now: NOW, model, port });
    await expect(attempt).rejects.toBeInstanceOf(SandboxOptionError);
    await expect(attempt).rejects.toThrow(`sandbox cannot listen on 127.0.0.1:${port}: port ${port} is already in use`);
    const badHost = startSandbox({ now: NOW, model, host: '192.0.2.1' });
    await expect(badHost).rejects.toThrow('192.0.2.1 is not an address of this machine');
  });

  it('a log file in a missing directory fails the start', async () => {
    await expect(startSandbox({ now: NOW, model, logFile: '/nonexistent-dir/x/requests.log' })).rejects.toThrow(/ENOENT/);
  });
});
