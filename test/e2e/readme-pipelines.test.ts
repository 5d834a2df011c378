/**
 * The README's pipeline examples, taken from the README itself, run as written against the sandbox:
 * each `newsstats sync` line of the "Pipelines" section in order, in one folder (a lake a team builds
 * up over time, as the README shows it), and the tap's config file and commands. Only what points
 * elsewhere is changed: the tap config's base_url names the sandbox. The object-storage lines need a
 * bucket and are run by test/e2e/sync-s3.test.ts against a local S3-compatible server.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO, runCli, splitExample, tempDir, useLoggedSandbox } from './harness.js';

const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
const start = readme.indexOf('## Pipelines');
const section = readme.slice(start, readme.indexOf('\n## ', start + 1));
const blocks = (language: string) => [...section.matchAll(new RegExp('```' + language + '\\n([\\s\\S]*?)```', 'g'))].map((match) => match[1]!);

/** `newsstats ...` lines of the section's shell blocks, their comments dropped. */
const commandLines = blocks('sh')
  .flatMap((block) => block.split('\n'))
  .map((line) => line.replace(/\s+#.*$/, '').trim())
  .filter((line) => line.startsWith('newsstats '));
const syncLines = commandLines.filter((line) => line.startsWith('newsstats sync ') && !line.includes('s3://'));
const tapLines = commandLines.filter((line) => line.startsWith('newsstats tap '));

describe("the README's pipeline examples", () => {
  const logged = useLoggedSandbox();

  it('are found where the README shows them', () => {
    expect(syncLines.length).toBeGreaterThanOrEqual(4);
    expect(tapLines).toHaveLength(2);
    expect(blocks('json')).toHaveLength(1);
  });

  it('sync: every line runs as written, one after another, into the same folders', async () => {
    const cwd = tempDir();
    for (const line of syncLines) {
      const result = await runCli(splitExample(line.slice('newsstats '.length)), { env: logged.env, cwd, timeoutMs: 60_000 });
      expect(result.code, `${line}\n${result.stderr}`).toBe(0);
      expect(result.stderr, line).not.toMatch(/error|warning/i);
    }
    const state = JSON.parse(readFileSync(join(cwd, 'lake', '_newsstats_sync.json'), 'utf8')) as Record<string, unknown>;
    expect(Object.keys(state)).toContain('streams');
  }, 120_000);

  it('tap: the config file and both commands run as written, the stream ending in STATE', async () => {
    const cwd = tempDir();
    const config = JSON.parse(blocks('json')[0]!) as Record<string, unknown>;
    writeFileSync(join(cwd, 'tap.json'), JSON.stringify({ ...config, base_url: logged.env.NEWSSTATS_BASE_URL }));
    const env = { NEWSSTATS_API_KEY: logged.env.NEWSSTATS_API_KEY };
    for (const line of tapLines) {
      // The shell's part of each line: `> catalog.json` is where stdout goes, `| target` who reads it.
      const redirect = /\s>\s*(\S+)$/.exec(line);
      const command = line.replace(/\s[>|].*$/, '');
      const result = await runCli(splitExample(command.slice('newsstats '.length)), { env, cwd, timeoutMs: 60_000 });
      expect(result.code, `${line}\n${result.stderr}`).toBe(0);
      if (redirect) {
        writeFileSync(join(cwd, redirect[1]!), result.stdout);
        continue;
      }
      const messages = result.stdout.trim().split('\n').map((text) => JSON.parse(text) as { type: string; stream?: string });
      expect(new Set(messages.map((message) => message.type))).toEqual(new Set(['SCHEMA', 'RECORD', 'STATE', 'ACTIVATE_VERSION']));
      // The discovered catalog selects every stream: each one sends records.
      const catalog = JSON.parse(readFileSync(join(cwd, 'catalog.json'), 'utf8')) as { streams: Array<{ tap_stream_id: string }> };
      expect(new Set(messages.filter((message) => message.type === 'RECORD').map((message) => message.stream))).toEqual(new Set(catalog.streams.map((stream) => stream.tap_stream_id)));
      expect(messages.at(-1)!.type).toBe('STATE');
    }
  }, 120_000);
});
