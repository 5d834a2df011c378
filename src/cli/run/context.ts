/**
 * Builds the Context of one run (its type, with what each part is for, is in spec.ts): the parts
 * wired to each other, nothing built yet.
 */
import type { GlobalOptions } from '../flags/global.js';
import { Dependencies } from './dependencies.js';
import type { Io } from './io.js';
import { Lifecycle } from './lifecycle.js';
import { Reporter } from './reporter.js';
import type { CommandTreeSource, Context } from './spec.js';

const NO_COMMANDS: CommandTreeSource = { nouns: async () => [], globalOptions: () => [] };

/** The context of one run: its parts wired to each other, nothing built yet. */
export function createContext(io: Io, globals: GlobalOptions, env: NodeJS.ProcessEnv, commands: CommandTreeSource = NO_COMMANDS): Context {
  const lifecycle = new Lifecycle(io.process);
  // The reporter masks the key once the dependencies have read it; they report through it.
  const report: Reporter = new Reporter(io, env, globals, (): string | undefined => deps.knownSecret, (cleanup) => lifecycle.onCleanup(cleanup));
  const deps: Dependencies = new Dependencies(globals, env, report, lifecycle);
  return { io, globals, env, deps, report, lifecycle, commands };
}
