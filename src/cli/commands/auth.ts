import { maskKey } from '../../config/store.js';
import type { Context } from '../context.js';
import { MissingKeyError, UsageError } from '../errors.js';
import { switchFlag } from '../options.js';
import { verb, type NounVerbs } from '../spec.js';

/** Reads a line from the terminal without echoing it, so the key never shows on screen or in scrollback. */
async function promptHidden(ctx: Context, question: string): Promise<string> {
  const { stdin, stderr } = ctx.io;
  // Echo goes off before the prompt shows: a key pasted the moment the prompt appears is not echoed.
  stdin.setRawMode?.(true);
  stdin.resume();
  stdin.setEncoding('utf8');
  stderr.write(question);
  try {
    return await new Promise<string>((resolve, reject) => {
      let typed = '';
      const onData = (chunk: string) => {
        for (const character of chunk) {
          if (character === '\r' || character === '\n') {
            stdin.off('data', onData);
            resolve(typed);
            return;
          }
          if (character === '\u0003') {
            stdin.off('data', onData);
            reject(new UsageError('login cancelled; nothing was saved'));
            return;
          }
          if (character === '\u007f' || character === '\b') typed = typed.slice(0, -1);
          else typed += character;
        }
      };
      stdin.on('data', onData);
    });
  } finally {
    stdin.setRawMode?.(false);
    stdin.pause();
    stderr.write('\n');
  }
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
    const settings = await ctx.settings();
    if (!settings.baseUrl) {
      throw new UsageError('no base URL to log in to', 'pass --base-url URL, or run `newsstats config set base-url URL` first');
    }
    let apiKey: string;
    if (flags.withKey) apiKey = (await readAll(ctx.io.stdin)).trim();
    else if (ctx.io.stdinIsTTY) apiKey = (await promptHidden(ctx, `API key for ${settings.baseUrl}: `)).trim();
    else throw new UsageError('no terminal to ask for the key', 'pipe it in with --with-key');
    if (!apiKey) throw new UsageError('the key is empty; nothing was saved');

    // A rejected key ends the run here with exit 3, and nothing is written.
    const client = await ctx.openClient({ baseUrl: settings.baseUrl, apiKey, settings });
    await client.weeks.current();

    const { ProfileStore } = await import('../../config/store.js');
    const store = await ProfileStore.open(ctx.env);
    store.set(settings.profileName, 'api-key', apiKey);
    if (settings.baseUrlSource !== 'profile') store.set(settings.profileName, 'base-url', settings.baseUrl);
    ctx.note(`Logged in to ${settings.baseUrl} with key ${maskKey(apiKey)}; saved to profile "${settings.profileName}" in ${store.path}.`);
    if (settings.keySource === 'NEWSSTATS_API_KEY') {
      ctx.note('Note: NEWSSTATS_API_KEY is set and takes precedence over the saved key.');
    }
  },
});

const status = verb({
  name: 'status',
  summary: 'Show the base URL, profile, where the key comes from (masked), and whether the service accepts it',
  examples: ['auth status', 'auth status -f json'],
  view: { fields: ['profile', 'baseUrl', 'baseUrlSource', 'keySource', 'key', 'accepted'], single: true },
  async run(ctx) {
    const settings = await ctx.settings();
    if (!settings.apiKey) throw new MissingKeyError(`not logged in: no API key for profile "${settings.profileName}"`);
    let accepted: boolean | null = null;
    if (settings.baseUrl) {
      await (await ctx.client()).weeks.current();
      accepted = true;
    }
    return {
      data: {
        profile: settings.profileName,
        baseUrl: settings.baseUrl ?? null,
        baseUrlSource: settings.baseUrlSource,
        keySource: settings.keySource,
        key: maskKey(settings.apiKey),
        accepted,
      },
    };
  },
});

const logout = verb({
  name: 'logout',
  summary: 'Remove the API key from the profile',
  examples: ['auth logout', 'auth logout --profile staging'],
  prints: 'nothing',
  async run(ctx) {
    const settings = await ctx.settings();
    const { ProfileStore } = await import('../../config/store.js');
    const store = await ProfileStore.open(ctx.env);
    const hadKey = store.profile(settings.profileName)['api-key'] !== undefined;
    store.unset(settings.profileName, 'api-key');
    ctx.note(hadKey ? `Removed the key from profile "${settings.profileName}".` : `Profile "${settings.profileName}" had no key.`);
    if (ctx.env.NEWSSTATS_API_KEY) ctx.note('NEWSSTATS_API_KEY is still set in this environment.');
  },
});

const auth: NounVerbs = { verbs: [login, status, logout] };

export default auth;
