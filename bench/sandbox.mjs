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

  const windows = [
    ['202607', '202610'],
    ['202610', '202610'],
    ['202609', '202609'],
    ['202603', '202610'],
  ];
  const variants = {
    // One query over and over: the body cache's best case, as a polling client sees it.
    'repeated, default limit': ['/api/data/people/top'],
    'repeated, limit=10': ['/api/data/people/top?limit=10'],
    // A dashboard's mix: 48 distinct queries, each computed once, then served from the cache.
    'mixed, 48 queries': ['mentions', 'dominance'].flatMap((sortBy) =>
      [5, 10, 25, 50].flatMap((limit) =>
        windows.slice(0, 3).map(([start, end]) => `/api/data/people/top?limit=${limit}&sortBy=${sortBy}&startWeek=${start}&endWeek=${end}`),
      ),
    ),
  };
  // Every query new: what the model and the serialiser cost per answer (no cache can help).
  const distinct = ['mentions', 'dominance'].flatMap((sortBy) =>
    windows.flatMap(([start, end]) =>
      Array.from({ length: 50 }, (_, index) => `/api/data/people/top?limit=${index + 1}&sortBy=${sortBy}&startWeek=${start}&endWeek=${end}`),
    ),
  );

  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const rounds = 3;
  const warmup = { ...settings, count: Math.min(2000, settings.count) };
  const baselineServer = await startServerWorker('baseline');
  await measure(baselineServer.url, ['/'], warmup);

  console.log(
    `throughput on /api/data/people/top: ${settings.count} requests a run, ${settings.connections} keep-alive ` +
      `connections, ${settings.concurrency} in flight; median of ${rounds} rounds, each round baseline then sandbox`,
  );
  const baselines = [];
  let slowestCached = Infinity;
  for (const [name, paths] of Object.entries(variants)) {
    // A fresh sandbox per variant, so one variant's cache does not warm the next.
    const server = await startServerWorker('sandbox');
    await measure(server.url, paths, warmup);
    const results = [];
    for (let round = 0; round < rounds; round++) {
      const baseline = await measure(baselineServer.url, ['/'], settings);
      const result = await measure(server.url, paths, settings);
      baselines.push(baseline.rps);
      results.push({ ...result, ratio: result.rps / baseline.rps });
    }
    await server.close();
    const rps = median(results.map((result) => result.rps));
    slowestCached = Math.min(slowestCached, rps);
    console.log(
      `  ${name.padEnd(26)} ${rps.toFixed(0).padStart(7)} req/s   ` +
        `${median(results.map((result) => result.ratio)).toFixed(2)} x baseline   ` +
        `${(results[0].meanBytes / 1024).toFixed(1)} KiB/answer`,
    );
  }
  const missServer = await startServerWorker('sandbox');
  await measure(missServer.url, ['/api/data/weeks/current'], warmup);
  const misses = await measure(missServer.url, distinct, { ...settings, count: distinct.length });
  await missServer.close();
  const baselineRps = median(baselines);
  console.log(
    `  ${`all misses, ${distinct.length} queries`.padEnd(26)} ${misses.rps.toFixed(0).padStart(7)} req/s   ` +
      `${(misses.rps / baselineRps).toFixed(2)} x baseline   ${(misses.meanBytes / 1024).toFixed(1)} KiB/answer`,
  );
  console.log(`  ${'baseline (bare node:http)'.padEnd(26)} ${baselineRps.toFixed(0).padStart(7)} req/s   (median of all rounds)`);
  await baselineServer.close();
  console.log('');
  console.log(
    `target ${TARGET_RPS} req/s on the cached mixes: ${slowestCached >= TARGET_RPS ? 'met' : 'NOT met'} ` +
      `(slowest ${slowestCached.toFixed(0)} req/s)`,
  );
}
