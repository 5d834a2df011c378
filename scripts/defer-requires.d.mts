// Types for scripts/defer-requires.mjs, so tests can import it.
import type { Plugin } from 'esbuild';

export interface DeferredRequire {
  /** The file it patches, as a path inside node_modules: `undici/lib/dispatcher/client.js`. */
  file: string;
  /** The line as the pinned version writes it. */
  eager: string;
  /** What the build puts in its place. */
  lazy: string;
}
export const deferredRequires: readonly DeferredRequire[];
export const deferRequires: Plugin;
