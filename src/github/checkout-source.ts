/**
 * What the comment body reads from a checkout, the same for the App and the Action: the lines of a file
 * for the source excerpt, and the blob permalink of a pin at the head SHA.
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { MAX_SOURCE_FILE_BYTES } from '../limits.js';
import { unsafePath } from './extract-tarball.js';

/** Reads a file of the checkout for the comment's excerpt; nothing for unsafe or oversized paths. */
export function sourceReader(dir: string): (file: string) => string[] | undefined {
  return (file) => {
    if (unsafePath(file)) return undefined;
    try {
      const p = join(dir, file);
      return statSync(p).size > MAX_SOURCE_FILE_BYTES ? undefined : readFileSync(p, 'utf8').split('\n');
    } catch {
      return undefined;
    }
  };
}

/** `https://<host>/<owner>/<repo>/blob/<sha>/<file>#L<line>`, each path segment encoded (spaces, `#`, `?` in names). */
export function permalinkAt(repoUrl: string, sha: string): (file: string, line: number) => string {
  return (file, line) => `${repoUrl}/blob/${sha}/${file.split('/').map(encodeURIComponent).join('/')}#L${line}`;
}
