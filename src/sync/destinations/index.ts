/**
 * The destination a `sync` argument names: `s3://bucket/prefix` an object store (its client loaded
 * only then), any other `scheme://` refused, anything else a local folder. An empty name is refused:
 * it is not "here". So is a storage address missing a slash (`s3:/bucket/lake`, `s3:bucket`): taken
 * as a folder, it was a local `s3:` folder and exit 0, the failure #33 began with, for one typo.
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
  const mistyped = /^([A-Za-z][A-Za-z0-9+.-]+):/.exec(target)?.[1];
  if (mistyped !== undefined && ADDRESS_SCHEMES.has(mistyped.toLowerCase())) {
    const address = mistyped.toLowerCase() === 's3' ? 'an object store is written s3://bucket/prefix, two slashes after s3:' : `${mistyped}: is not a destination sync writes to; give a local folder or s3://bucket/prefix`;
    throw new LakeError(`${target}: ${address}; for a local folder of that name, write ./${target}`);
  }
  return new LocalLake(resolve(cwd, target));
}

/**
 * Schemes of object stores, file systems and URLs that a data team writes: a name starting with one
 * and a colon is an address, whatever follows. Other names with a colon (`backup:2026`) stay folders;
 * one letter is a Windows drive (`C:\lake`).
 */
const ADDRESS_SCHEMES = new Set(['s3', 's3a', 's3n', 'gs', 'gcs', 'r2', 'abfs', 'abfss', 'az', 'azure', 'wasb', 'wasbs', 'adl', 'hdfs', 'oss', 'cos', 'file', 'http', 'https', 'ftp', 'sftp']);
