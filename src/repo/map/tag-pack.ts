import { lstatSync, mkdirSync, readFileSync, readdirSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { FileTags } from './types.js';
import type { DefKind, Definition, Reference } from './types.js';

/**
 * One file per repository with the tags of every file it mapped, keyed by path, size and mtime (as git's
 * index is). A warm run then reads one file and stats the sources, instead of reading and hashing every
 * source and opening one cache entry per file (measured on 10,000 files: ~0.15 s instead of ~0.7 s).
 * A file whose size or mtime changed falls through to the content-hash cache, so a stale pack only
 * costs time, never a wrong tag.
 */
const PACK_VERSION = 2;
/** Packs kept: one per repository recently mapped; the oldest go first. */
export const MAX_PACKS = 32;

/**
 * Compact on purpose: a pack is parsed whole on every warm run, and JSON.parse costs by size. Definitions
 * are arrays, references one string of `name line` pairs in line order (so no sort on the way back).
 * Measured on 10,000 files: 8.9 MB and ~0.18 s to parse and expand, against 14 MB and ~0.45 s as objects.
 */
type PackedDef = [name: string, kind: DefKind, line: number, endLine: number, signature: string, container: string | 0];
type Packed = [size: number, mtimeMs: number, lang: string | null, parsed: 0 | 1, defs: PackedDef[], refs: string];

interface PackFile {
  v: number;
  root: string;
  files: Record<string, Packed>;
}

export interface Pack {
  path: string;
  root: string;
  files: Map<string, Packed>;
}

function packPath(cacheDir: string, root: string): string {
  return join(cacheDir, 'packs', `${createHash('sha1').update(root).digest('hex')}.json`);
}

export function loadPack(cacheDir: string, root: string): Pack {
  const path = packPath(cacheDir, root);
  const files = new Map<string, Packed>();
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
  if (!Array.isArray(x) || x.length !== 6) return undefined;
  try {
    const st = lstatSync(join(pack.root, file));
    if (!st.isFile() || st.size !== x[0] || st.mtimeMs !== x[1]) return undefined;
  } catch {
    return undefined;
  }
  try {
    return unpack(file, x);
  } catch {
    return undefined; // a damaged entry: tag the file again
  }
}

/** Writes the pack for these tags (atomically); keeps at most MAX_PACKS. Never throws. */
export function savePack(pack: Pack, tags: ReadonlyMap<string, FileTags>): void {
  const files: PackFile['files'] = {};
  for (const [file, t] of tags) {
    try {
      const st = lstatSync(join(pack.root, file));
      if (!st.isFile()) continue;
      files[file] = packOne(st.size, st.mtimeMs, t);
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

function packOne(size: number, mtimeMs: number, t: FileTags): Packed {
  const defs: PackedDef[] = t.defs.map((d) => [d.name, d.kind, d.line, d.endLine, d.signature, d.container ?? 0]);
  const refs = t.refs.map((r) => `${r.name} ${r.line}`).join(' ');
  return [size, mtimeMs, t.lang, t.parsed ? 1 : 0, defs, refs];
}

function unpack(file: string, x: Packed): FileTags {
  const defs: Definition[] = x[4].map(([name, kind, line, endLine, signature, container]) => ({ name, kind, line, endLine, signature, ...(container ? { container } : {}) }));
  const refs: Reference[] = [];
  const parts = x[5] ? x[5].split(' ') : [];
  for (let i = 0; i + 1 < parts.length; i += 2) refs.push({ name: parts[i]!, line: Number(parts[i + 1]) });
  return { file, lang: x[2], defs, refs, parsed: x[3] === 1 };
}
