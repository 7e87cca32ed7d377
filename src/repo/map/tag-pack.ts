import { lstatSync, mkdirSync, readFileSync, readdirSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { FileTags } from './types.js';
import { decodeEntry, encodeEntry, type Entry } from './tag-cache.js';

/**
 * One file per repository with the tags of every file it mapped, keyed by path, size and mtime (as git's
 * index is). A warm run then reads one file and stats the sources, instead of reading and hashing every
 * source and opening one cache entry per file (measured on 10,000 files: ~0.15 s instead of ~0.7 s).
 * A file whose size or mtime changed falls through to the content-hash cache, so a stale pack only
 * costs time, never a wrong tag.
 */
const PACK_VERSION = 1;
/** Packs kept: one per repository recently mapped; the oldest go first. */
export const MAX_PACKS = 32;

interface PackFile {
  v: number;
  root: string;
  files: Record<string, { size: number; mtimeMs: number; e: Entry }>;
}

export interface Pack {
  path: string;
  root: string;
  files: Map<string, { size: number; mtimeMs: number; e: Entry }>;
}

function packPath(cacheDir: string, root: string): string {
  return join(cacheDir, 'packs', `${createHash('sha1').update(root).digest('hex')}.json`);
}

export function loadPack(cacheDir: string, root: string): Pack {
  const path = packPath(cacheDir, root);
  const files = new Map<string, { size: number; mtimeMs: number; e: Entry }>();
  try {
    const p = JSON.parse(readFileSync(path, 'utf8')) as PackFile;
    if (p.v === PACK_VERSION && p.root === root && p.files && typeof p.files === 'object') for (const [f, x] of Object.entries(p.files)) files.set(f, x);
  } catch {
    // absent or corrupt: an empty pack
  }
  return { path, root, files };
}

/** The packed tags of `file` when its size and mtime are unchanged (and it is not a symlink). */
export function packHit(pack: Pack, file: string): FileTags | undefined {
  const x = pack.files.get(file);
  if (!x) return undefined;
  try {
    const st = lstatSync(join(pack.root, file));
    if (!st.isFile() || st.size !== x.size || st.mtimeMs !== x.mtimeMs) return undefined;
  } catch {
    return undefined;
  }
  const tags = decodeEntry(x.e);
  return tags ? { file, ...tags } : undefined;
}

/** Writes the pack for these tags (atomically); keeps at most MAX_PACKS. Never throws. */
export function savePack(pack: Pack, tags: ReadonlyMap<string, FileTags>): void {
  const files: PackFile['files'] = {};
  for (const [file, t] of tags) {
    try {
      const st = lstatSync(join(pack.root, file));
      if (!st.isFile()) continue;
      files[file] = { size: st.size, mtimeMs: st.mtimeMs, e: encodeEntry(t) };
    } catch {
      // vanished meanwhile: not packed
    }
  }
  try {
    const dir = join(pack.path, '..');
    mkdirSync(dir, { recursive: true });
    const tmp = `${pack.path}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify({ v: PACK_VERSION, root: pack.root, files } satisfies PackFile));
    renameSync(tmp, pack.path);
    const all = readdirSync(dir).filter((n) => n.endsWith('.json')).map((n) => ({ n, t: statSync(join(dir, n)).mtimeMs }));
    for (const old of all.sort((a, b) => b.t - a.t).slice(MAX_PACKS)) unlinkSync(join(dir, old.n));
  } catch {
    // an unwritable cache only costs time next run
  }
}
