/**
 * The destination a `sync` argument names: `s3://bucket/prefix` an object store (its client loaded
 * only then), any other `scheme://` refused, anything else a local folder. An empty name is refused:
 * it is not "here".
 */
import { resolve } from 'node:path';
import { LakeError, type Destination } from './destination.js';
import { LocalLake } from './local.js';

export async function destinationOf(target: string, cwd: string, options: { timeoutMs?: number; warn?: (line: string) => void } = {}): Promise<Destination> {
  if (target.trim() === '') throw new LakeError('sync needs a folder (or s3://bucket/prefix); an empty name is not one');
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//.exec(target)?.[1];
  if (scheme !== undefined) {
    if (scheme.toLowerCase() === 's3') {
      // The S3 client is loaded only for an s3:// lake (destinations/s3.ts).
      const { S3Lake } = await import('./s3.js');
      return S3Lake.fromAddress(target, options);
    }
    throw new LakeError(`${target}: ${scheme}:// is not a destination sync writes to; give a local folder or s3://bucket/prefix (S3-compatible stores through AWS_ENDPOINT_URL_S3)`);
  }
  return new LocalLake(resolve(cwd, target));
}
