import { maskKey } from '../../config/store.js';
import { resolveProfileName } from '../../config/resolve.js';
import { defaultText, isProfileKey, PROFILE_KEYS, PROFILE_SETTINGS, SETTINGS, validateSetting, type ProfileKey } from '../../config/settings.js';
import type { Context } from '../run/spec.js';
import { UsageError } from '../run/errors.js';
import { verb, type NounVerbs, type Row } from '../run/spec.js';

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
  args: ['<key>', '<value>'],
  examples: ['config set base-url https://stats.example.com', 'config set cache-ttl 6 --profile staging'],
  prints: 'nothing',
  validate: ({ args: [key, value] }) => {
    const name = profileKey(key);
    return { name, value: validateSetting(name, value) };
  },
  async run(ctx, { name, value }) {
    if (name === 'base-url') {
      // Refused now, as every run would refuse it later: plain http to another machine puts the key
      // on the wire in clear text, unless the profile already accepts that risk.
      const [{ resolveServiceAddress }, { readProfile }] = await Promise.all([import('../../api/core/address.js'), import('../../config/resolve.js')]);
      resolveServiceAddress(value, readProfile(profileName(ctx), ctx.env)['allow-insecure-http'] === 'true');
    }
    const store = await openStore(ctx);
    store.set(profileName(ctx), name, value);
  },
});

const get = verb({
  name: 'get',
  summary: 'Print one setting of the profile (the key is shown masked)',
  args: ['<key>'],
  examples: ['config get base-url'],
  prints: 'text',
  validate: ({ args: [key] }) => profileKey(key),
  async run(ctx, name) {
    const { readProfile } = await import('../../config/resolve.js');
    const value = readProfile(profileName(ctx), ctx.env)[name];
    if (value === undefined) {
      const fallback = defaultText(SETTINGS[PROFILE_SETTINGS.get(name)!]);
      throw new UsageError(`${name} is not set in profile "${profileName(ctx)}"`, fallback === undefined ? undefined : `unset, it is ${fallback}`);
    }
    return { text: `${shown(name, value)}\n` };
  },
});

const unset = verb({
  name: 'unset',
  summary: 'Remove a setting from the profile',
  args: ['<key>'],
  examples: ['config unset allow-insecure-http'],
  prints: 'nothing',
  validate: ({ args: [key] }) => profileKey(key),
  async run(ctx, name) {
    const store = await openStore(ctx);
    store.unset(profileName(ctx), name);
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
  prints: 'text',
  async run(ctx) {
    const { configFilePath } = await import('../../config/store.js');
    return { text: `${configFilePath(ctx.env)}\n` };
  },
});

const config: NounVerbs = { verbs: [set, get, unset, list, path] };

export default config;
