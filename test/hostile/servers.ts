/**
 * Misbehaving peers for the hostile suite, all on 127.0.0.1 port 0: a programmable HTTP service, a
 * proxy that fails CONNECT in each way a proxy can, a TCP server that never finishes a TLS handshake,
 * and a real TLS server on a throwaway certificate made by openssl at test time.
 *
 * The CLI runs in this process by default (`run`: main() with in-memory streams and an isolated
 * environment, milliseconds a run); `runProcess` spawns the built bin for the tests where a real
 * process is the point (signals, its own file descriptors, Node's start-up, the bin's fast paths, or
 * what src/ reads from the real process rather than from main()'s io), each saying why beside it.
 *
 * Set NEWSSTATS_HOSTILE_BIN to another build's bin/newsstats.cjs to run the suite against it (this is
 * how each test was seen to fail on the code before issues #8 and #21): every run then spawns that
 * bin, the in-process ones included, since an old build's src/ is not what this process imports.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createTcpServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { BIN, type CliOptions, type CliResult, isolatedEnv, runCli, runCliOnTerminal, shellQuote, spawnAndCollect, tempDir } from '../e2e/harness.js';

export const HOSTILE_BIN = process.env.NEWSSTATS_HOSTILE_BIN ?? BIN;
/** Another build under test: its code runs only in a process of its own. */
const SPAWN_EVERY_RUN = process.env.NEWSSTATS_HOSTILE_BIN !== undefined;

export const KEY = 'hostile-test-key-0001';

export interface RunOptions extends Omit<CliOptions, 'onSpawn' | 'timeoutMs'> {
  /** Config and cache home (HOME, XDG_CONFIG_HOME, XDG_CACHE_HOME under it); a fresh one when absent. */
  home?: string;
  /** stdout, stderr and stdin are a terminal this many columns wide; stderr arrives merged into stdout, as on a screen. */
  terminal?: number;
}

/**
 * The CLI under test, in this process (runCli, or runCliOnTerminal for `terminal`: main(argv, io) with
 * in-memory streams), with an isolated home (or the given one) and only the environment a child would
 * get. Same result shape as a spawned run.
 */
export function run(args: string[], options: RunOptions = {}): Promise<CliResult> {
  if (SPAWN_EVERY_RUN) return runProcess(args, options);
  const { home = tempDir('newsstats-hostile-'), terminal, env, cwd } = options;
  if (terminal !== undefined) return runCliOnTerminal(args, { home, columns: terminal, env, cwd });
  return runCli(args, { ...options, env: isolatedEnv(home, env) });
}

/** The built bin (or NEWSSTATS_HOSTILE_BIN) in a child process, killed after `timeoutMs` (spawnAndCollect's bound for a hang by default). */
export async function runProcess(args: string[], options: RunOptions & Pick<CliOptions, 'onSpawn' | 'timeoutMs'> = {}): Promise<CliResult> {
  const env = isolatedEnv(options.home ?? tempDir('newsstats-hostile-'), terminalEnv(options));
  if (options.terminal === undefined) return spawnAndCollect(process.execPath, [HOSTILE_BIN, ...args], env, options);
  const command = [process.execPath, HOSTILE_BIN, ...args].map(shellQuote).join(' ');
  // `script` ends the session when its stdin closes, so the run gets no stdin at all.
  const result = await spawnAndCollect('script', ['-qfec', command, '/dev/null'], env, { ...options, noStdin: true });
  return { ...result, stdout: result.stdout.replace(/\r\n/g, '\n') };
}

/** A terminal's variables, as runCliOnTerminal sets them (a pseudo-terminal of `script` reports no width), then the test's. */
function terminalEnv(options: RunOptions): Record<string, string | undefined> | undefined {
  if (options.terminal === undefined) return options.env;
  return { TERM: 'xterm-256color', COLUMNS: String(options.terminal), ...options.env };
}

export type Route = (request: IncomingMessage, response: ServerResponse) => void;

export interface HostileServer {
  url: string;
  /** Every request's path and query, in arrival order. */
  requests: string[];
  close(): Promise<void>;
}

/** Answers each path (query ignored) with its route; anything else is a 404 problem. */
export async function hostileServer(routes: Record<string, Route>): Promise<HostileServer> {
  const requests: string[] = [];
  const server = createServer((request, response) => {
    requests.push(request.url ?? '');
    const route = routes[(request.url ?? '').split('?')[0]!];
    if (route) route(request, response);
    else json({ title: 'not found', status: 404 }, 404)(request, response);
  });
  return listening(server, 'http', requests);
}

async function listening(server: Server, scheme: string, requests: string[]): Promise<HostileServer> {
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `${scheme}://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A JSON answer; the body may be text (sent as is) or a value. */
export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Route {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return (_request, response) => {
    response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
    response.end(text);
  };
}

/** Answers in turn with each route, repeating the last. */
export function sequence(...routes: Route[]): Route {
  let index = 0;
  return (request, response) => routes[Math.min(index++, routes.length - 1)]!(request, response);
}

/** A body of about `bytes` bytes, streamed in chunks without a Content-Length, that is a valid countries list. */
export function hugeCountries(bytes: number): Route {
  return (_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    const item = JSON.stringify({ countryId: 1, countryName: 'x'.repeat(1000), countryIso: 'XX' });
    const count = Math.ceil(bytes / (item.length + 1));
    let sent = 0;
    const writeMore = (): void => {
      while (sent < count) {
        const chunk = `${sent === 0 ? '[' : ','}${item}`;
        sent++;
        if (!response.write(chunk)) {
          response.once('drain', writeMore);
          return;
        }
      }
      response.end(']');
    };
    response.on('error', () => undefined);
    writeMore();
  };
}

/** The valid answers the CLI needs around the route under test. */
export const WEEK_INFO = { currentWeek: 202647, last4StartWeek: 202644 };
export const COUNTRIES = [
  { countryId: 18, countryName: 'Germany', countryIso: 'DE' },
  { countryId: 26, countryName: 'Japan', countryIso: 'JP' },
];

export function ranked(count: number): Array<Record<string, unknown>> {
  return Array.from({ length: count }, (_, index) => ({ rank: index + 1, personHash: `p${index + 1}`, fullName: `Person ${index + 1}`, mentionCount: 10 }));
}

export type ProxyMode = 'close' | 'reset' | 'silent';

export interface HostileProxy {
  url: string;
  /** CONNECT requests received so far. */
  connects(): number;
  close(): Promise<void>;
}

/** A proxy that reads each CONNECT and then closes, resets, or never answers. */
export async function hostileProxy(mode: ProxyMode): Promise<HostileProxy> {
  let connects = 0;
  const server = createTcpServer((socket) => {
    socket.on('error', () => undefined);
    let head = '';
    socket.on('data', (chunk) => {
      head += chunk.toString('latin1');
      if (!head.includes('\r\n\r\n')) return;
      connects += head.split('\r\n\r\n').filter((part) => part.startsWith('CONNECT ')).length;
      head = '';
      if (mode === 'close') socket.end();
      else if (mode === 'reset') socket.resetAndDestroy();
    });
  });
  const served = await listening(server, 'http', []);
  return { url: served.url, connects: () => connects, close: () => served.close() };
}

/** A TCP server that accepts and says nothing: a TLS handshake with it never finishes. */
export async function silentTcpServer(): Promise<HostileServer> {
  return listening(createTcpServer((socket) => socket.on('error', () => undefined)), 'https', []);
}

export interface Certificate {
  cert: string;
  key: string;
  /** The certificate's file, for NODE_EXTRA_CA_CERTS. */
  certFile: string;
}

/** A throwaway self-signed certificate for 127.0.0.1 and localhost, valid one day. */
export function makeCertificate(): Certificate {
  const dir = tempDir('newsstats-cert-');
  const [keyFile, certFile] = [join(dir, 'key.pem'), join(dir, 'cert.pem')];
  execFileSync('openssl', [
    'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-subj', '/CN=localhost',
    '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost', '-days', '1', '-keyout', keyFile, '-out', certFile,
  ], { stdio: 'ignore' });
  return { cert: readFileSync(certFile, 'utf8'), key: readFileSync(keyFile, 'utf8'), certFile };
}

/** An https service on the certificate, answering by path like hostileServer. */
export async function tlsServer(certificate: Certificate, routes: Record<string, Route>): Promise<HostileServer> {
  const requests: string[] = [];
  const server = createHttpsServer({ cert: certificate.cert, key: certificate.key }, (request, response) => {
    requests.push(request.url ?? '');
    const route = routes[(request.url ?? '').split('?')[0]!];
    if (route) route(request, response);
    else json({ title: 'not found', status: 404 }, 404)(request, response);
  });
  return listening(server, 'https', requests);
}

/** Never answers: the request waits for headers until the client gives up. */
export const hang: Route = () => undefined;
