/**
 * What every command is handed, split by job as gh splits its Factory from its IOStreams:
 * - `io`: the streams and the terminal behind them (streams.ts);
 * - `globals`, `env`: what this run was given;
 * - `deps`: what commands build on, each made on first use: settings, client, cached lists (dependencies.ts);
 * - `report`: what the person at the terminal is told on stderr: notes, --verbose detail, progress (reporter.ts);
 * - `lifecycle`: clean-ups, interrupts, V8 flags of the process the run owns (lifecycle.ts);
 * - `commands`: the command tree, for the verbs that describe it (completion).
 */
import { Dependencies } from './dependencies.js';
import { Lifecycle } from './lifecycle.js';
import type { GlobalOptions } from './registry.js';
import { Reporter } from './reporter.js';
import type { CommandTreeSource } from './spec.js';
import type { Io } from './streams.js';

export type { GlobalOptions } from './registry.js';
export { detectIo, type Io } from './streams.js';
export type { CloseReason } from './lifecycle.js';

export interface Context {
  readonly io: Io;
  readonly globals: GlobalOptions;
  readonly env: NodeJS.ProcessEnv;
  readonly deps: Dependencies;
  readonly report: Reporter;
  readonly lifecycle: Lifecycle;
  readonly commands: CommandTreeSource;
}

const NO_COMMANDS: CommandTreeSource = { nouns: async () => [], globalOptions: () => [] };

/** The context of one run: its parts wired to each other, nothing built yet. */
export function createContext(io: Io, globals: GlobalOptions, env: NodeJS.ProcessEnv, commands: CommandTreeSource = NO_COMMANDS): Context {
  const lifecycle = new Lifecycle(io.process);
  // The reporter masks the key once the dependencies have read it; they report through it.
  const report: Reporter = new Reporter(io, env, globals, (): string | undefined => deps.knownSecret, (cleanup) => lifecycle.onCleanup(cleanup));
  const deps: Dependencies = new Dependencies(globals, env, report, lifecycle);
  return { io, globals, env, deps, report, lifecycle, commands };
}
