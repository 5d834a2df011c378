// dist/help/: the text every `--help` prints when stdout is no terminal, written at build time, so that
// bin/newsstats.cjs answers `newsstats --help` and `newsstats NOUN [VERB] --help` with one file read
// and one write, before dist/cli/main.js, commander or the command tree loads (about 0.5x of `node -e
// 0` on Node 24 and 26 otherwise, npm run bench:startup).
//
// Each text is what main() prints for that command line: the CLI built from src/ once more, run in this
// process against a string, with no terminal (so at commander's 80 columns) and an empty environment.
// One file a command line: newsstats.txt for `newsstats --help`, newsstats.people.txt,
// newsstats.people.top.txt. test/build/static-help.test.ts checks every file against main()'s own
// output (under another environment too), and that every noun and verb has one.
//
// At a terminal, commander lays help out at its width: bin/newsstats.cjs then runs main() as before.
import { build } from 'esbuild';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';

/** The file a command line's help lives in: the words joined by dots (no noun or verb holds a dot). */
export const staticHelpFile = (words) => `${['newsstats', ...words].join('.')}.txt`;

/** main() and the registry, bundled from src/ into a temporary CommonJS file and loaded. */
export async function loadCli(repo) {
  const folder = mkdtempSync(join(tmpdir(), 'newsstats-help-'));
  try {
    const outfile = join(folder, 'cli.cjs');
    await build({
      stdin: {
        contents: "export { main } from './src/cli/run/main.ts'; export { COMMANDS, loadNoun } from './src/cli/run/registry.ts';",
        resolveDir: repo,
        loader: 'ts',
      },
      outfile,
      bundle: true,
      format: 'cjs',
      platform: 'node',
      target: 'node20.19',
      logLevel: 'error',
      external: ['exceljs', 'exceljs/*', 'jq-web'],
    });
    return createRequire(outfile)(outfile);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** What main() prints on stdout for `newsstats ...words --help`, piped. */
export async function helpOf(main, words) {
  let text = '';
  const sink = (write) => new Writable({ decodeStrings: false, write: (chunk, _encoding, done) => { write(String(chunk)); done(); } });
  let errors = '';
  const code = await main(['node', 'newsstats', ...words, '--help'], {
    stdout: sink((chunk) => (text += chunk)),
    stderr: sink((chunk) => (errors += chunk)),
    stdin: Readable.from([]),
    env: {},
    isTTY: { stdin: false, stdout: false, stderr: false },
    cwd: tmpdir(),
  });
  if (code !== 0 || errors !== '' || text === '') throw new Error(`newsstats ${[...words, '--help'].join(' ')}: exit ${code}, ${text.length} bytes out, stderr: ${errors}`);
  return text;
}

/** Every command line with a help of its own: none (the program), each noun, each named verb. */
export async function helpCommandLines(COMMANDS, loadNoun) {
  const lines = [[]];
  for (const entry of COMMANDS) {
    lines.push([entry.name]);
    for (const { name } of (await loadNoun(entry)).verbs) if (name !== '') lines.push([entry.name, name]);
  }
  return lines;
}

/** Writes dist/help/: one file for each command line's help. */
export async function writeStaticHelp(repo, dist) {
  const { main, COMMANDS, loadNoun } = await loadCli(repo);
  const folder = join(dist, 'help');
  mkdirSync(folder, { recursive: true });
  for (const words of await helpCommandLines(COMMANDS, loadNoun)) {
    writeFileSync(join(folder, staticHelpFile(words)), await helpOf(main, words));
  }
}
