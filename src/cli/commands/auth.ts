import { maskKey } from '../../config/store.js';
import type { Context } from '../run/spec.js';
import { InterruptedError, KeyRejectedError, MissingKeyError, UsageError } from '../run/errors.js';
import { switchFlag } from '../flags/options.js';
import { verb, type NounVerbs } from '../run/spec.js';

const BRACKETED_PASTE_ON = '\x1b[?2004h';
const BRACKETED_PASTE_OFF = '\x1b[?2004l';

/**
 * Reads a key from the terminal without echoing it, so it never shows on screen or in scrollback.
 * Keys are interpreted by applyKeys (key-input.ts); bracketed paste is switched on so a pasted key
 * arrives marked as text. Ctrl-C restores the terminal and ends the run with 130.
 */
async function promptHidden(ctx: Context, question: string): Promise<string> {
  const { stdin, stderr } = ctx.io;
  const { applyKeys, EMPTY_KEY_INPUT } = await import('../run/key-input.js');
  // Echo goes off before the prompt shows: a key pasted the moment the prompt appears is not echoed.
  stdin.setRawMode?.(true);
  stdin.resume();
  stdin.setEncoding('utf8');
  stderr.write(BRACKETED_PASTE_ON + question);
  let input = EMPTY_KEY_INPUT;
  try {
    input = await new Promise((resolve) => {
      let state = EMPTY_KEY_INPUT;
      const onData = (chunk: string) => {
        state = applyKeys(state, chunk);
        if (!state.done) return;
        stdin.off('data', onData);
        resolve(state);
      };
      stdin.on('data', onData);
    });
  } finally {
    stdin.setRawMode?.(false);
    stdin.pause();
    stderr.write(`${BRACKETED_PASTE_OFF}\n`);
  }
  if (input.done === 'cancel') {
    ctx.report.note('login cancelled; nothing was saved');
    throw new InterruptedError();
  }
  return input.typed;
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  let text = '';
  stream.setEncoding('utf8');
  for await (const chunk of stream) text += chunk as string;
  return text;
}

const login = verb({
  name: 'login',
  summary: 'Save an API key to the profile, after checking it against the service',
  flags: { withKey: switchFlag('--with-key', 'read the key from standard input instead of asking') },
  prints: 'nothing',
  examples: [
    'auth login --base-url https://stats.example.com',
    'auth login --with-key < key.txt',
    'printf %s "$KEY" | newsstats --profile staging auth login --with-key',
  ],
  async run(ctx, { flags }) {
    const settings = await ctx.deps.settings();
    if (!settings.baseUrl) {
      throw new UsageError('no base URL to log in to', 'pass --base-url URL, or run `newsstats config set base-url URL` first');
    }
    let apiKey: string;
    if (flags.withKey) apiKey = (await readAll(ctx.io.stdin)).trim();
    else if (ctx.io.isTTY.stdin) apiKey = (await promptHidden(ctx, `API key for ${settings.baseUrl}: `)).trim();
    else throw new UsageError('no terminal to ask for the key', 'pipe it in with --with-key');
    if (!apiKey) throw new UsageError('the key is empty; nothing was saved');

    // A rejected key ends the run here with exit 3, and nothing is written.
    const client = await ctx.deps.openClient({ baseUrl: settings.baseUrl, apiKey, settings });
    try {
      await client.weeks.current();
    } catch (error) {
      const { AuthenticationError } = await import('../../api/errors.js');
      if (!(error instanceof AuthenticationError)) throw error;
      // "run auth login" is what the user just did: point at the key itself instead.
      throw new KeyRejectedError(
        `${settings.baseUrl} rejected the key (${rejection(error)}); nothing was saved`,
        'check the key (copied whole, for this service?) and run the same command again',
      );
    }

    const { ProfileStore } = await import('../../config/store.js');
    const store = await ProfileStore.open(ctx.env);
    store.set(settings.profile, 'api-key', apiKey);
    if (settings.sources.baseUrl !== 'profile') store.set(settings.profile, 'base-url', settings.baseUrl);
    ctx.report.note(`Logged in to ${settings.baseUrl} with key ${maskKey(apiKey)}; saved to profile "${settings.profile}" in ${store.path}.`);
    if (settings.sources.apiKey === 'NEWSSTATS_API_KEY') {
      ctx.report.note('Note: NEWSSTATS_API_KEY is set and takes precedence over the saved key.');
    }
  },
});

/** `401: Invalid API key`: the status and the service's own title, if it gave one. */
function rejection(error: { status: number; problem?: { title?: string } | undefined }): string {
  return `${error.status}: ${error.problem?.title ?? 'the key is missing or invalid'}`;
}

/** The hint for a rejected key: where it came from decides what to do about it. */
function rejectedKeyHint(keySource: string): string {
  return keySource === 'NEWSSTATS_API_KEY'
    ? 'the key comes from NEWSSTATS_API_KEY, which overrides the saved key: fix or unset it'
    : 'run `newsstats auth login` to save a key the service accepts';
}

const status = verb({
  name: 'status',
  summary: 'Show the base URL, profile, where the key comes from (masked), and whether the service accepts it',
  examples: ['auth status', 'auth status -f json'],
  view: { fields: ['profile', 'baseUrl', 'baseUrlSource', 'keySource', 'key', 'accepted'], single: true },
  async run(ctx) {
    const settings = await ctx.deps.settings();
    if (!ctx.globals.sandbox) (await import('../../config/resolve.js')).checkNamedProfile(ctx.globals.profile, ctx.env);
    // The block is always printed; a key that is not accepted then fails the run (exit 2, 3 or 5).
    let accepted = 'yes';
    let failure: unknown;
    if (!settings.apiKey) {
      accepted = 'no (no key)';
      failure = new MissingKeyError(`not logged in: no API key for profile "${settings.profile}"`);
    } else if (!settings.baseUrl && !ctx.globals.sandbox) {
      accepted = 'unknown (no base URL)';
      failure = new UsageError('no base URL is set', 'pass --base-url URL, set NEWSSTATS_BASE_URL, or run `newsstats config set base-url URL`');
    } else {
      try {
        await (await ctx.deps.client()).weeks.current();
      } catch (error) {
        const { AuthenticationError, ConnectionError, ServerError, RateLimitError } = await import('../../api/errors.js');
        if (error instanceof AuthenticationError) {
          accepted = `no (${rejection(error)})`;
          failure = new KeyRejectedError(`the service rejected the key (${rejection(error)})`, rejectedKeyHint(settings.sources.apiKey));
        } else if (error instanceof ConnectionError || error instanceof ServerError || error instanceof RateLimitError) {
          accepted = `unreachable (${error.message})`;
          failure = error;
        } else {
          throw error;
        }
      }
    }
    return {
      data: {
        profile: settings.profile,
        baseUrl: settings.baseUrl ?? null,
        baseUrlSource: settings.sources.baseUrl,
        keySource: settings.sources.apiKey,
        key: settings.apiKey ? maskKey(settings.apiKey) : null,
        accepted,
      },
      failure,
    };
  },
});

const logout = verb({
  name: 'logout',
  summary: 'Remove the API key from the profile',
  examples: ['auth logout', 'auth logout --profile staging'],
  prints: 'nothing',
  async run(ctx) {
    const settings = await ctx.deps.settings();
    const { ProfileStore } = await import('../../config/store.js');
    const store = await ProfileStore.open(ctx.env);
    const hadKey = store.profile(settings.profile)['api-key'] !== undefined;
    store.unset(settings.profile, 'api-key');
    ctx.report.note(hadKey ? `Removed the key from profile "${settings.profile}".` : `Profile "${settings.profile}" had no key.`);
    if (ctx.env.NEWSSTATS_API_KEY) ctx.report.note('NEWSSTATS_API_KEY is still set in this environment.');
  },
});

const auth: NounVerbs = { verbs: [login, status, logout] };

export default auth;
