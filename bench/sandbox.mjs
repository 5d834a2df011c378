// Sandbox throughput and startup benchmark.
//
//   npm run build && node bench/sandbox.mjs [--requests N] [--connections C] [--concurrency K]
//
// Throughput: requests/second on /api/data/people/top over keep-alive (an undici Pool), for several
// query mixes, next to a baseline measured in the same run with the same client: a bare node:http
// server that answers a fixed small JSON. The ratio cancels most of the machine's noise. Each server
// runs in its own worker thread, so client and server do not share one event loop (as in real use,
// where the CLI and the sandbox are separate processes).
// Startup: time from the startSandbox() call to the first response, measured first, in this process.
import { createServer } from 'node:http';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { Pool, request } from 'undici';

const TARGET_RPS = 2000;
const KEY = 'bench-key';
const NOW = new Date('2026-03-04T12:00:00Z');

if (!isMainThread) {
  await runServerWorker(workerData.kind);
} else {
  await main();
}

async function runServerWorker(kind) {
  let url;
  let close;
  if (kind === 'sandbox') {
    const { startSandbox } = await import('../dist/sandbox/server.js');
    const sandbox = await startSandbox({ key: KEY, seed: 1, now: NOW });
    url = sandbox.url;
    close = () => sandbox.close();
  } else {
    // The floor: what node:http costs for a tiny JSON answer, nothing else.
    const body = Buffer.from('{"currentWeek":202610,"last4StartWeek":202607}');
    const server = createServer({ keepAlive: true, noDelay: true }, (req, res) => {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
      res.end(body);
    });
    server.keepAliveTimeout = 5_000;
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${server.address().port}`;
    close = () =>
      new Promise((resolve) => {
        server.close(resolve);
        server.closeAllConnections();
      });
  }
  parentPort.on('message', async (message) => {
    if (message === 'close') {
      await close();
      parentPort.postMessage('closed');
    }
  });
  parentPort.postMessage({ url });
}

function startServerWorker(kind) {
  const worker = new Worker(new URL(import.meta.url), { workerData: { kind } });
  return new Promise((resolve, reject) => {
    worker.once('error', reject);
    worker.once('message', ({ url }) =>
      resolve({
        url,
        close: () =>
          new Promise((done) => {
            worker.once('message', () => worker.terminate().then(() => done()));
            worker.postMessage('close');
          }),
      }),
    );
  });
}

/** Sends `count` GETs with at most `concurrency` in flight; returns requests per second. */
async function measure(url, paths, { count, connections, concurrency }) {
  const pool = new Pool(url, { connections, pipelining: 1, keepAliveTimeout: 10_000 });
  const headers = { 'x-api-key': KEY, accept: 'application/json' };
  let next = 0;
  let bytes = 0;
  const failures = [];
  async function lane() {
    while (next < count) {
      const path = paths[next % paths.length];
      next++;
      const response = await pool.request({ path, method: 'GET', headers });
      const body = await response.body.arrayBuffer();
      bytes += body.byteLength;
      if (response.statusCode !== 200 && failures.length < 3) failures.push(`${response.statusCode} ${path}`);
    }
  }
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, lane));
  const seconds = (performance.now() - started) / 1000;
  await pool.close();
  if (failures.length > 0) throw new Error(`unexpected answers: ${failures.join(', ')}`);
  return { rps: count / seconds, seconds, meanBytes: bytes / count };
}

async function measureStartup() {
  const importStarted = performance.now();
  const { startSandbox } = await import('../dist/sandbox/server.js');
  const { createSandboxModel } = await import('../dist/sandbox/data/index.js');
  const importMs = performance.now() - importStarted;

  const started = performance.now();
  const sandbox = await startSandbox({ key: KEY, seed: 1, now: NOW });
  const listeningMs = performance.now() - started;
  const headers = { 'x-api-key': KEY };
  const first = await request(sandbox.url + '/api/data/weeks/current', { headers });
  await first.body.text();
  const firstResponseMs = performance.now() - started;
  const top = await request(sandbox.url + '/api/data/people/top', { headers });
  await top.body.text();
  const firstTopMs = performance.now() - started;
  await sandbox.close();

  // The model alone, generated again (warm code, so a little faster than the first time).
  const modelStarted = performance.now();
  const model = createSandboxModel({ seed: 2, now: NOW });
  model.weekInfo();
  const modelMs = performance.now() - modelStarted;
  return { importMs, listeningMs, firstResponseMs, firstTopMs, modelMs };
}

async function main() {
  const { values } = parseArgs({
    options: {
      requests: { type: 'string', default: '20000' },
      connections: { type: 'string', default: '8' },
      concurrency: { type: 'string', default: '32' },
    },
  });
  const settings = {
    count: Number(values.requests),
    connections: Number(values.connections),
    concurrency: Number(values.concurrency),
  };

  const startup = await measureStartup();
  const fmt = (ms) => `${ms.toFixed(1)} ms`;
  console.log('startup (first thing in a fresh process)');
  console.log(`  import server + model modules   ${fmt(startup.importMs)}`);
  console.log(`  startSandbox() -> listening      ${fmt(startup.listeningMs)}`);
  console.log(`  startSandbox() -> 1st response   ${fmt(startup.firstResponseMs)}   (weeks/current)`);
  console.log(`  startSandbox() -> people/top     ${fmt(startup.firstTopMs)}   (first, uncached)`);
  console.log(`  createSandboxModel() again       ${fmt(startup.modelMs)}`);
  console.log(`  first response under 1 s: ${startup.firstResponseMs < 1000 ? 'yes' : 'NO'}`);
  console.log('');

  const weeks = ['202607', '202608', '202609', '202610'];
  const variants = {
    // One query over and over: the body cache's best case, as a polling client sees it.
    'repeated (1 query)': ['/api/data/people/top?limit=50'],
    // A dashboard's mix: 48 distinct queries, each missed once then served from cache.
    'mixed (48 queries)': ['mentions', 'dominance'].flatMap((sortBy) =>
      [5, 10, 25].flatMap((limit) =>
        weeks.flatMap((week, index) =>
          index % 2 === 0
            ? [`/api/data/people/top?limit=${limit}&sortBy=${sortBy}&startWeek=${week}&endWeek=202610`]
            : [`/api/data/people/top?limit=${limit}&sortBy=${sortBy}&startWeek=${week}&endWeek=${week}`],
        ),
      ),
    ),
    // 2,000 distinct queries: every one a cache miss the first time through (model + serialiser).
    'distinct (2000 queries)': Array.from(
      { length: 2000 },
      (_, index) => `/api/data/people/top?limit=${(index % 1000) + 1}&sortBy=${index < 1000 ? 'mentions' : 'dominance'}`,
    ),
  };

  const warmup = { ...settings, count: Math.min(2000, settings.count) };
  const baselineServer = await startServerWorker('baseline');
  await measure(baselineServer.url, ['/'], warmup);
  const baseline = await measure(baselineServer.url, ['/'], settings);
  await baselineServer.close();

  console.log(
    `throughput: ${settings.count} requests a run, ${settings.connections} keep-alive connections, ` +
      `${settings.concurrency} in flight`,
  );
  console.log(`  ${'baseline (bare node:http)'.padEnd(26)} ${baseline.rps.toFixed(0).padStart(7)} req/s`);
  let worst = Infinity;
  for (const [name, paths] of Object.entries(variants)) {
    // A fresh sandbox per variant, so one variant's cache does not warm the next.
    const server = await startServerWorker('sandbox');
    // The distinct mix is warmed on other queries only, so its misses are measured.
    await measure(server.url, name.startsWith('distinct') ? ['/api/data/weeks/current'] : paths, warmup);
    const result = await measure(server.url, paths, settings);
    await server.close();
    worst = Math.min(worst, result.rps);
    console.log(
      `  ${name.padEnd(26)} ${result.rps.toFixed(0).padStart(7)} req/s   ` +
        `${(result.rps / baseline.rps).toFixed(2)} x baseline   ${(result.meanBytes / 1024).toFixed(1)} KiB/answer`,
    );
  }
  console.log('');
  console.log(`target ${TARGET_RPS} req/s on every mix: ${worst >= TARGET_RPS ? 'met' : 'NOT met'} (slowest ${worst.toFixed(0)} req/s)`);
}
