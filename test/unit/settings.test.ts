/**
 * The settings table (src/config/settings.ts) is the one place a setting's sources, bounds, default
 * and help are written: these check that every surface reads it, so a setting added there shows up
 * everywhere, and one added anywhere else fails here.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InvalidArgumentError } from 'commander';
import { describe, expect, it } from 'vitest';
import { HTTP_DEFAULTS } from '../../src/api/options.js';
import { globalFlags, globalOptions } from '../../src/cli/flags/global.js';
import { HELP_TOPICS } from '../../src/cli/help/topics.js';
import { ENVIRONMENT, resolveSettings } from '../../src/config/resolve.js';
import { isProfileKey, longFlag, PROFILE_KEYS, SETTINGS, SettingError, validateSetting, type SettingSpec } from '../../src/config/settings.js';

const specs = Object.entries(SETTINGS) as Array<[string, SettingSpec<unknown>]>;
const SAMPLES = ['0', '1', '3', '20', '21', '30', '0.5', '3600', '3601', '4096', '4097', '10000', '-1', '1e3', '', ' 7 ', 'true', 'x', 'https://a.example/', 'ftp://x'];

function flagAccepts(name: string, text: string): unknown {
  const option = (globalFlags as Record<string, { build(): { parseArg?: (value: string, previous: unknown) => unknown } }>)[name]!.build();
  try {
    return option.parseArg!(text, undefined);
  } catch (error) {
    if (error instanceof InvalidArgumentError) return 'refused';
    throw error;
  }
}

function configAccepts(key: string, text: string): unknown {
  try {
    return validateSetting(key as never, text);
  } catch (error) {
    if (error instanceof SettingError) return 'refused';
    throw error;
  }
}

describe('the settings table', () => {
  it('is where every global flag that sets a setting comes from, under the same name', () => {
    const fromTable = specs.filter(([, spec]) => spec.flag).map(([name, spec]) => [name, longFlag(spec.flag!)]);
    const options = new Map(globalOptions().map((option) => [option.attributeName(), option.long]));
    for (const [name, flag] of fromTable) expect(options.get(name!), name).toBe(flag);
  });

  it('gives a flag and its profile key the same parser: what one refuses the other refuses', () => {
    for (const [name, spec] of specs.filter(([, candidate]) => candidate.flag && candidate.key && !candidate.notSetWithConfig)) {
      for (const text of SAMPLES) {
        const flag = flagAccepts(name, text);
        const config = configAccepts(spec.key!, text);
        expect(flag === 'refused', `${name} ${JSON.stringify(text)}: flag ${String(flag)}, config ${String(config)}`).toBe(config === 'refused');
      }
    }
  });

  it('states each default once: the flags\' help shows the value the client uses', () => {
    const help = new Map(globalOptions().map((option) => [option.long, option.description]));
    expect(help.get('--timeout')).toContain(`else ${HTTP_DEFAULTS.timeoutMs / 1000})`);
    expect(help.get('--retries')).toContain(`else ${HTTP_DEFAULTS.maxRetries})`);
    expect(help.get('--max-response-mb')).toContain(`else ${HTTP_DEFAULTS.maxResponseBytes / 1024 / 1024})`);
    for (const [, spec] of specs.filter(([, candidate]) => candidate.flag && candidate.default !== undefined)) {
      expect(help.get(longFlag(spec.flag!)), spec.flag).toContain(String(spec.default));
    }
  });

  it('lists every profile key, environment variable and precedence in `help environment`', () => {
    const text = HELP_TOPICS.environment!.text({ XDG_CONFIG_HOME: '/cfg', XDG_CACHE_HOME: '/cache' });
    for (const [, spec] of specs) {
      if (spec.key) {
        expect(isProfileKey(spec.key)).toBe(true);
        expect(PROFILE_KEYS[spec.key as keyof typeof PROFILE_KEYS]).toContain(spec.help);
        expect(text).toContain(spec.key);
      }
      if (spec.env) {
        expect(Object.keys(ENVIRONMENT)).toContain(spec.env);
        expect(text).toContain(spec.env);
      }
    }
    expect(Object.keys(PROFILE_KEYS).sort()).toEqual(specs.flatMap(([, spec]) => (spec.key ? [spec.key] : [])).sort());
  });

  it('resolves every setting from its flag, then its variable, then the profile, then its default, with no list of its own', () => {
    // A value per setting that its parser accepts and no source gives by default: the row's own
    // parser says which. A setting added to the table is checked here without a line of resolve.ts.
    const CANDIDATES = ['https://a.example', 'https://b.example', 'https://c.example', '7', '5', '3', '2', 'true', 'false', 'less', 'more', 'most'];
    const accepted = (spec: SettingSpec<unknown>, taken: unknown[]): [string, unknown] => {
      for (const text of CANDIDATES) {
        try {
          const value = spec.parse(text);
          if (value !== spec.default && !taken.includes(value)) return [text, value];
        } catch {
          // not this one
        }
      }
      throw new Error(`no sample value for ${spec.help}`);
    };
    const home = mkdtempSync(join(tmpdir(), 'newsstats-settings-'));
    mkdirSync(join(home, 'newsstats'));
    for (const [name, spec] of specs) {
      const [profileText, profileValue] = accepted(spec, []);
      const [envText, envValue] = spec.env ? accepted(spec, [profileValue]) : [];
      const [, flagValue] = spec.flag ? accepted(spec, [profileValue, envValue]) : [];
      writeFileSync(join(home, 'newsstats', 'config.json'), JSON.stringify({ profiles: { default: spec.key ? { [spec.key]: profileText } : {} } }));
      const env = { XDG_CONFIG_HOME: home, ...(spec.env && { [spec.env]: envText }) };
      const flags = spec.flag ? { [name]: flagValue } : {};
      const resolve = (withFlags: object, withEnv: NodeJS.ProcessEnv) => {
        const settings = resolveSettings({ flags: withFlags as never, env: withEnv }) as unknown as Record<string, unknown> & { sources: Record<string, string> };
        return [settings[name], settings.sources[name]];
      };
      if (spec.flag) expect(resolve(flags, env), name).toEqual([flagValue, longFlag(spec.flag)]);
      if (spec.env) expect(resolve({}, env), name).toEqual([envValue, spec.env]);
      if (spec.key) expect(resolve({}, { XDG_CONFIG_HOME: home }), name).toEqual([profileValue, 'profile']);
      writeFileSync(join(home, 'newsstats', 'config.json'), '{"profiles":{}}');
      expect(resolve({}, { XDG_CONFIG_HOME: home }), name).toEqual(spec.default === undefined ? [undefined, 'none'] : [spec.default, 'default']);
    }
    rmSync(home, { recursive: true, force: true });
  });

  it('reads the environment with the table\'s parser, naming the variable', () => {
    const env = { XDG_CONFIG_HOME: '/nonexistent-newsstats', NEWSSTATS_BASE_URL: 'ftp://x' };
    expect(() => resolveSettings({ flags: {}, env })).toThrow('NEWSSTATS_BASE_URL must start with https://');
    const ok = resolveSettings({ flags: {}, env: { ...env, NEWSSTATS_BASE_URL: 'https://env.example/' } });
    expect(ok).toMatchObject({ baseUrl: 'https://env.example', sources: { baseUrl: 'NEWSSTATS_BASE_URL' }, cacheTtl: SETTINGS.cacheTtl.default });
  });
});

describe('reading the environment', () => {
  it('takes a blank variable as unset, as an empty one', () => {
    const env = { XDG_CONFIG_HOME: '/nonexistent-newsstats', NEWSSTATS_BASE_URL: '  ', NEWSSTATS_API_KEY: ' ', NEWSSTATS_PROFILE: '' };
    expect(resolveSettings({ flags: {}, env })).toMatchObject({ sources: { baseUrl: 'none', apiKey: 'none' }, profile: SETTINGS.profile.default });
  });

  it('refuses a bound the flag refuses, naming the profile key in the file', () => {
    expect(() => validateSetting('timeout', '3601')).toThrow('timeout takes a number of seconds greater than 0, at most 3600');
    expect(() => validateSetting('retries', '21')).toThrow('retries takes an integer from 0 to 20');
    expect(validateSetting('cache-ttl', '0')).toBe('0');
  });
});

describe('README', () => {
  const readme = readFileSync(join(import.meta.dirname, '../../README.md'), 'utf8');

  it('says each flag\'s default as the table has it (Global options)', () => {
    const rows = new Map([...readme.matchAll(/^\| `(--[\w-]+)[^`]*` \| (.*) \|$/gm)].map(([, flag, meaning]) => [flag!, meaning!]));
    for (const [, spec] of specs.filter(([, candidate]) => candidate.flag && candidate.default !== undefined && typeof candidate.default === 'number')) {
      expect(rows.get(longFlag(spec.flag!)), spec.flag).toMatch(new RegExp(`default ${String(spec.default)}\\b`));
    }
  });

  it('says the cache TTL the table has', () => {
    expect(readme).toContain(`for ${SETTINGS.cacheTtl.default} hours (profile`);
  });
});
