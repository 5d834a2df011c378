// Types for scripts/build.mjs, so tests can build with it.
import type { Metafile, Plugin } from 'esbuild';

export const target: string;
export class BuildWarningError extends Error {}
export interface BuildOptions {
  step: string;
  entryPoints: string[];
  outdir: string;
  outbase?: string;
  commonjs: boolean;
  external?: string[];
  plugins?: Plugin[];
}
export function buildOne(options: BuildOptions): Promise<Metafile>;
export const builds: readonly BuildOptions[];
export function thirdPartyNotices(metafiles: readonly Metafile[]): string;
export const withoutHttp2: Plugin;
