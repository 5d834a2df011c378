// Types for scripts/static-help.mjs, so tests can check dist/help/ against main().
import type { CommandEntry } from '../src/cli/run/registry.js';
import type { NounSpec } from '../src/cli/run/spec.js';

export function staticHelpFile(words: readonly string[]): string;
export function helpCommandLines(commands: readonly CommandEntry[], loadNoun: (entry: CommandEntry) => Promise<NounSpec>): Promise<string[][]>;
export function writeStaticHelp(repo: string, dist: string): Promise<void>;
