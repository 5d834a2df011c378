import { isProfileKey, maskKey, PROFILE_KEYS, type ProfileKey } from '../../config/store.js';
import { resolveProfileName } from '../../config/resolve.js';
import { validateSetting } from '../../config/settings.js';
import type { Context } from '../context.js';
import { UsageError } from '../errors.js';
import { verb, type NounSpec, type Row } from '../spec.js';

const VALID_KEYS = Object.keys(PROFILE_KEYS).join(', ');

function profileKey(key: string): ProfileKey {
  if (!isProfileKey(key)) throw new UsageError(`unknown config key "${key}"; valid keys: ${VALID_KEYS}`);
  return key;
}

/** Checks a value as the code that reads it will, so a bad value is refused now, not on the next run. */
export { validateSetting };

function shown(key: string, value: string): string {
  return key === 'api-key' ? maskKey(value) : value;
}

async function openStore(ctx: Context) {
  const { ProfileStore } = await import('../../config/store.js');
  return ProfileStore.open(ctx.env);
}

function profileName(ctx: Context): string {
  return resolveProfileName(ctx.globals.profile, ctx.env);
}

const set = verb({
  name: 'set',
  summary: 'Set a profile setting',
  arguments: '<key> <value>',
  examples: ['config set base-url https://stats.example.com', 'config set cache-ttl 6 --profile staging'],
  validate: ([key, value]) => void validateSetting(profileKey(key!), value!),
  async run(ctx, [key, value]) {
    const name = profileKey(key!);
    const store = await openStore(ctx);
    store.set(profileName(ctx), name, validateSetting(name, value!));
  },
});

const get = verb({
  name: 'get',
  summary: 'Print one setting of the profile (the key is shown masked)',
  arguments: '<key>',
  examples: ['config get base-url'],
  validate: ([key]) => void profileKey(key!),
  async run(ctx, [key]) {
    const name = profileKey(key!);
    const { readProfile } = await import('../../config/resolve.js');
    const value = readProfile(profileName(ctx), ctx.env)[name];
    if (value === undefined) throw new UsageError(`${name} is not set in profile "${profileName(ctx)}"`);
    ctx.io.stdout.write(`${shown(name, value)}\n`);
  },
});

const unset = verb({
  name: 'unset',
  summary: 'Remove a setting from the profile',
  arguments: '<key>',
  examples: ['config unset allow-insecure-http'],
  validate: ([key]) => void profileKey(key!),
  async run(ctx, [key]) {
    const store = await openStore(ctx);
    store.unset(profileName(ctx), profileKey(key!));
  },
});

const list = verb({
  name: 'list',
  summary: 'Every setting of every profile (keys masked)',
  examples: ['config list', 'config list -f json'],
  view: { fields: ['profile', 'key', 'value'] },
  async run(ctx) {
    const store = await openStore(ctx);
    const rows: Row[] = store.profileNames().flatMap((name) =>
      Object.entries(store.profile(name)).map(([key, value]) => ({ profile: name, key, value: shown(key, value ?? '') })),
    );
    return { data: rows };
  },
});

const path = verb({
  name: 'path',
  summary: 'Print the config file\'s path',
  examples: ['config path'],
  async run(ctx) {
    const { configFilePath } = await import('../../config/store.js');
    ctx.io.stdout.write(`${configFilePath(ctx.env)}\n`);
  },
});

const config: NounSpec = { name: 'config', summary: 'Read and write profile settings', verbs: [set, get, unset, list, path] };

export default config;
