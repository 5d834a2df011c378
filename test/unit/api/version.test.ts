import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { VERSION } from '../../../src/shared/version.js';

describe('VERSION', () => {
  it('matches package.json, so User-Agent tells the truth', () => {
    const packageJson = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(VERSION).toBe(packageJson.version);
  });
});
