/**
 * One parser per profile setting, used by `config set` before it writes a value and by every run that
 * reads one: a hand-edited file gets the same checks as the command line, and the same messages.
 */
import { parseIntegerText } from '../numbers.js';
import type { ProfileKey } from './store.js';

/**
 * A setting's value refused, naming the setting and what it takes. The config layer's own error (it
 * never throws the CLI's); exit 2, as a usage error (cli/exit-codes.ts).
 */
export class SettingError extends Error {
  override name = 'SettingError';
  constructor(message: string, readonly hint?: string) {
    super(message);
  }
}

const DECIMAL = /^\d+(\.\d+)?$/;

/** The value as it is stored, or a SettingError naming the key and what it takes. */
export function validateSetting(key: ProfileKey, value: string): string {
  switch (key) {
    case 'api-key':
      // On the command line the key would land in shell history.
      throw new SettingError('the key is not set with config', 'run `newsstats auth login` (it asks without echo, or reads --with-key from stdin)');
    case 'base-url': {
      let url: URL;
      try {
        url = new URL(value);
      } catch {
        throw new SettingError(`base-url "${value}" is not a URL`);
      }
      if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new SettingError('base-url must start with https://');
      return value.replace(/\/+$/, '');
    }
    case 'allow-insecure-http':
      if (value !== 'true' && value !== 'false') throw new SettingError('allow-insecure-http takes true or false');
      return value;
    case 'timeout':
      if (!DECIMAL.test(value) || !(Number(value) > 0) || Number(value) > 3600) {
        throw new SettingError('timeout takes a number of seconds greater than 0, at most 3600');
      }
      return value;
    case 'retries': {
      const retries = parseIntegerText(value);
      if (retries === undefined || retries < 0 || retries > 20) throw new SettingError('retries takes an integer from 0 to 20');
      return String(retries);
    }
    case 'cache-ttl':
      if (!DECIMAL.test(value)) throw new SettingError('cache-ttl takes a number of hours (0 turns the cache off)');
      return value;
    case 'max-response-mb':
      return String(parseMaxResponseMb(value, 'max-response-mb'));
  }
}

/** The response size limit in MiB: a whole number from 1 to 4096. Shared by the flag and the profile key. */
export function parseMaxResponseMb(value: string, name: string): number {
  const megabytes = parseIntegerText(value);
  if (megabytes === undefined || megabytes < 1 || megabytes > 4096) throw new SettingError(`${name} takes a whole number of MiB from 1 to 4096`);
  return megabytes;
}
