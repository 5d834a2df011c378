/**
 * Small helpers shared by the end-to-end test files (the harness itself stays untouched):
 * raw requests to a sandbox, the "one clean error line" check, request-log reading, and a tiny
 * fake API for data the synthetic model never produces.
 */
import { readdirSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';
import { readLog, type CliResult, type LogEntry } from './harness.js';

/** The raw body text of a sandbox GET, as the service sent it (for exact comparisons). */
export async function rawGet(server: { url: string; key: string }, path: string): Promise<{ status: number; text: string }> {
  const response = await fetch(`${server.url}/api/data/${path.replace(/^\/+/, '')}`, {
    headers: { 'X-Api-Key': server.key, Accept: 'application/json' },
  });
  return { status: response.status, text: await response.text() };
}

export async function rawJson<T = unknown>(server: { url: string; key: string }, path: string): Promise<T> {
  const { status, text } = await rawGet(server, path);
  expect(status).toBe(200);
  return JSON.parse(text) as T;
}

/** Every `"articleHash":<digits>` in a raw body, as digit strings (never through a JS number). */
export function articleHashes(text: string): string[] {
  return [...text.matchAll(/"articleHash"\s*:\s*(-?\d+)/g)].map((match) => match[1]!);
}

/** Lines of stderr, without the trailing empty line. */
export function stderrLines(result: CliResult): string[] {
  return result.stderr.split('\n').filter((line) => line.length > 0);
}

/**
 * A failed run as the design promises it: the exact exit code, nothing on stdout, one `error:` line on
 * stderr (plus optional `hint:` lines) and no stack trace. Returns the error line.
 */
export function expectFailure(result: CliResult, exitCode: number, message?: RegExp | string): string {
  expect({ code: result.code, signal: result.signal, stdout: result.stdout }, result.stderr).toEqual({
    code: exitCode,
    signal: null,
    stdout: '',
  });
  const lines = stderrLines(result);
  const errorLines = lines.filter((line) => !line.startsWith('hint: '));
  expect(errorLines, result.stderr).toHaveLength(1);
  expect(errorLines[0]).toMatch(/^error: /);
  expect(lines[0]).toBe(errorLines[0]);
  expect(result.stderr).not.toMatch(/^\s+at /m);
  if (message !== undefined) {
    if (typeof message === 'string') expect(errorLines[0]).toContain(message);
    else expect(errorLines[0]).toMatch(message);
  }
  return errorLines[0]!;
}

/** A successful run: exit 0 and no error line. Returns stdout. */
export function expectSuccess(result: CliResult): string {
  expect({ code: result.code, signal: result.signal }, result.stderr).toEqual({ code: 0, signal: null });
  expect(result.stderr).not.toMatch(/^error:/m);
  return result.stdout;
}

/** Files in a directory other than the expected ones (temporary leftovers show up here). */
export function listDir(dir: string): string[] {
  return readdirSync(dir).sort();
}

export interface FakeApi {
  url: string;
  key: string;
  /** Paths (with query) requested so far. */
  requests: string[];
  close(): Promise<void>;
}

/**
 * A minimal stand-in for the service on 127.0.0.1, answering fixed bodies by path (without query);
 * anything else is a 404 problem. For values the sandbox never produces (newlines in names, cells
 * that look like formulas, a failure in the middle of a streamed export). A route whose body is
 * HANG never answers.
 */
export const HANG = Symbol('hang');

export async function fakeApi(routes: Record<string, string | typeof HANG>, key = 'fake-key-0001'): Promise<FakeApi> {
  const requests: string[] = [];
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    requests.push(request.url ?? '');
    const path = (request.url ?? '').split('?')[0]!;
    const send = (status: number, body: string) => {
      response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
      response.end(body);
    };
    if (request.headers['x-api-key'] !== key) return send(401, '{"title":"Invalid API key","status":401}');
    const body = routes[path];
    if (body === HANG) return;
    if (body === undefined) return send(404, '{"title":"not found","status":404}');
    send(200, body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    key,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The request log once it holds at least `count` lines (it is written asynchronously after each answer). */
export async function readLogWhen(file: string, count: number, timeoutMs = 3_000): Promise<LogEntry[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const entries = await readLog(file);
    if (entries.length >= count || Date.now() > deadline) return entries;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
