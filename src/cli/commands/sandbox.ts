import { EventEmitter } from 'node:events';
import { UsageError } from '../run/errors.js';
import { parseDate, parseDecimal, parseInteger, parsedFlag, switchFlag, textFlag, withDefault } from '../flags/options.js';
import type { SandboxOptionName } from '../../sandbox/server.js';
import { verb, type NounVerbs } from '../run/spec.js';

/**
 * Flags are parsed into numbers and a date here, like every flag of the CLI; whether a value is in
 * range (a port, a share from 0 to 1) is the sandbox's own rule, checked by startSandbox itself.
 */
const serve = verb({
  name: '',
  summary: 'Serve the whole API contract on loopback from deterministic synthetic data (docs/sandbox.md)',
  flags: {
    host: withDefault(textFlag('--host <address>', 'interface to listen on'), '127.0.0.1'),
    port: withDefault(parsedFlag('--port <port>', 'port; 0 picks a free one', (text) => parseInteger('--port', text)), 8787),
    key: withDefault(textFlag('--key <key>', 'the API key clients must send'), 'sandbox'),
    seed: withDefault(parsedFlag('--seed <n>', 'seed of the data and the faults', (text) => parseInteger('--seed', text)), 1),
    now: parsedFlag('--now <YYYY-MM-DD>', 'the date that decides the current week, read as 00:00 UTC (default: today\'s date, so runs of one day agree)', (text) => parseDate('--now', text)),
    failRate: parsedFlag('--fail-rate <share>', 'share of requests, 0-1, answered 500/503 or dropped', (text) => parseDecimal('--fail-rate', text)),
    latency: parsedFlag('--latency <ms>', 'mean added latency per request, with jitter', (text) => parseDecimal('--latency', text)),
    rateLimit: parsedFlag('--rate-limit <n>', 'answer 429 with Retry-After above N requests a second', (text) => parseInteger('--rate-limit', text)),
    log: textFlag('--log <file>', 'append each request as a JSON line (never the key)'),
    logMaxMb: parsedFlag('--log-max-mb <n>', 'the most the --log file may hold, in MiB; later requests are not logged (default 64)', (text) => parseDecimal('--log-max-mb', text)),
    wild: switchFlag('--wild', 'answers carry what the contract allows and the data never has, and nothing it forbids: nulls, left-out and unknown fields, empty arrays, many scripts, long text, integers beyond 2^53 and 2^64 (up to 38 digits), ranks from 1, valid #RRGGBB colours, URLs and weeks'),
  },
  // The URL alone, for scripts: written by the server as soon as it listens.
  prints: 'text',
  examples: [
    'sandbox --port 0',
    'sandbox --port 0 --wild --seed 7   # answers with nulls, unknown fields and extreme values the contract allows',
    'sandbox --port 8787 --now 2026-11-22 --fail-rate 0.2 --latency 50',
    'sandbox --port 8787 --key sandbox   # then, in another shell: NEWSSTATS_BASE_URL=http://127.0.0.1:8787 NEWSSTATS_API_KEY=sandbox newsstats weeks',
  ],
  handlesSignals: true,
  async run(ctx, { flags }) {
    const [{ serveSandbox }, { SandboxOptionError }] = await Promise.all([
      import('../../sandbox/serve.js'),
      import('../../sandbox/server.js'),
    ]);
    const { latency, log, ...options } = flags;
    // In-process (tests) there are no signals: only a bad flag ends the run there.
    const signals = ctx.io.process ?? new EventEmitter();
    try {
      // Its messages are notes like every other (wrapped at a terminal, one line in a log), said even
      // under --quiet as before: the URL and key are what a person running it needs.
      const note = (message: string) => ctx.report.note(message, { evenQuiet: true });
      await serveSandbox({ ...options, latencyMs: latency, logFile: log }, { stdout: ctx.io.stdout, stderr: ctx.io.stderr, note }, signals);
    } catch (error) {
      // The library names its option (failRate); the CLI names the flag that set it (--fail-rate).
      if (error instanceof SandboxOptionError) {
        const flag = SANDBOX_OPTION_FLAGS[error.option];
        // A port taken by another program: any free one will do, and the sandbox prints its URL (#31).
        const hint = (error as { code?: string }).code === 'EADDRINUSE' ? 'choose another --port, or --port 0 for any free one (the URL is printed first)' : undefined;
        throw new UsageError(error.message.startsWith(`${error.option} `) ? `${flag}${error.message.slice(error.option.length)}` : error.message, hint);
      }
      throw error;
    }
  },
});

/** The flag of each sandbox option, for messages. */
const SANDBOX_OPTION_FLAGS: Readonly<Record<SandboxOptionName, string>> = {
  host: '--host', port: '--port', key: '--key', seed: '--seed', now: '--now',
  failRate: '--fail-rate', latencyMs: '--latency', rateLimit: '--rate-limit', logFile: '--log', logMaxMb: '--log-max-mb',
};

const sandbox: NounVerbs = { verbs: [serve] };

export default sandbox;
