/**
 * The request log is bounded (issue #21, Low): a flood of 40,000 requests had grown it to 326 MB. A
 * regular file never passes logMaxMb (what it held before counts); past it, requests are not logged
 * and the command says so once on stderr. Failed on the build before (no cap, no note).
 */
import { EventEmitter } from 'node:events';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { SandboxOptionError, startSandbox } from '../../src/sandbox/server.js';
import { serveSandbox } from '../../src/sandbox/serve.js';
import { createSandboxModel } from '../../src/sandbox/data/index.js';
import { client } from './helpers.js';

const NOW = new Date('2026-03-04T12:00:00Z');
const model = createSandboxModel({ seed: 1, now: NOW });
/** 4 KiB: room for some twenty lines of /api/data/countries. */
const CAP_MB = 4 / 1024;
const CAP_BYTES = 4096;

const directories: string[] = [];
afterAll(async () => {
  for (const directory of directories) await rm(directory, { recursive: true, force: true });
});
async function logPath(): Promise<string> {
  const directory = await mkdtemp(join(tmpdir(), 'newsstats-log-cap-'));
  directories.push(directory);
  return join(directory, 'requests.ndjson');
}

describe('the request log stops at its cap', () => {
  it('100 requests into a 4 KiB log: whole lines up to the cap, then nothing more, and one call of onLogFull', async () => {
    const logFile = await logPath();
    const notes: string[] = [];
    const sandbox = await startSandbox({ now: NOW, model, logFile, logMaxMb: CAP_MB, onLogFull: (message) => notes.push(message) });
    const http = client(sandbox.url, sandbox.key);
    for (let index = 0; index < 100; index++) await http.get(`/api/data/countries?n=${index}`);
    await http.close();
    await sandbox.close();

    const text = await readFile(logFile, 'utf8');
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(CAP_BYTES);
    const lines = text.trimEnd().split('\n').map((line) => JSON.parse(line) as { query: { n: string } });
    // The first requests are the ones kept, each line whole.
    expect(lines.length).toBeGreaterThan(10);
    expect(lines.map((line) => Number(line.query.n))).toEqual(lines.map((_, index) => index));
    // Filled: the room left is less than a line (the next one is a few bytes longer at most).
    const longest = Math.max(...text.trimEnd().split('\n').map((line) => Buffer.byteLength(line) + 1));
    expect(CAP_BYTES - Buffer.byteLength(text)).toBeLessThan(longest + 8);
    expect(notes).toEqual([`the request log ${logFile} reached its cap of ${CAP_MB} MiB; later requests are not logged`]);
  });

  it('what the file held before counts: a file already at the cap gets nothing', async () => {
    const logFile = await logPath();
    await writeFile(logFile, 'x'.repeat(CAP_BYTES - 10) + '\n');
    const notes: string[] = [];
    const sandbox = await startSandbox({ now: NOW, model, logFile, logMaxMb: CAP_MB, onLogFull: (message) => notes.push(message) });
    const http = client(sandbox.url, sandbox.key);
    await http.get('/api/data/countries');
    await http.get('/api/data/countries');
    await http.close();
    await sandbox.close();
    expect((await stat(logFile)).size).toBe(CAP_BYTES - 9);
    expect(notes).toHaveLength(1);
  });

  it('the command says it once on stderr, naming the flag that raises it', async () => {
    const logFile = await logPath();
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    let url = '';
    let said = '';
    stdout.on('data', (chunk: Buffer) => (url += chunk.toString('utf8')));
    stderr.on('data', (chunk: Buffer) => (said += chunk.toString('utf8')));
    const signals = new EventEmitter();
    const served = serveSandbox({ now: NOW, model, key: 'k', logFile, logMaxMb: CAP_MB }, { stdout, stderr }, signals);
    while (!url.endsWith('\n')) await new Promise((resolve) => setTimeout(resolve, 10));
    const http = client(url.trim(), 'k');
    for (let index = 0; index < 60; index++) await http.get('/api/data/countries');
    await http.close();
    signals.emit('SIGTERM');
    await served;
    const notes = said.split('\n').filter((line) => line.includes('reached its cap'));
    expect(notes).toEqual([`newsstats sandbox: the request log ${logFile} reached its cap of ${CAP_MB} MiB; later requests are not logged (--log-max-mb raises the cap)`]);
  });

  it('logMaxMb must be a number above 0', async () => {
    for (const logMaxMb of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
      await expect(startSandbox({ now: NOW, model, logMaxMb })).rejects.toThrow(SandboxOptionError);
    }
  });
});
