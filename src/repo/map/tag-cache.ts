import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, readdir, rename, stat, unlink, utimes, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Definition, FileTags, Reference } from './types.js';
import { sortRefs } from './tag-shape.js';

/**
 * Bump when what a tag entry means changes (tagging code, signature rules, entry layout). Edits to a
 * query file need no bump: the query text's hash is part of every key (see tagCacheKey).
 */
export const TAGS_VERSION = 1;
/** The tag cache keeps at most this much on disk; past it the oldest entries go (about 50k files' tags). */
export const TAG_CACHE_MAX_BYTES = 256 * 1024 * 1024;
/** Eviction trims to this share of the cap, so a full cache is not pruned again on the very next run. */
export const TAG_CACHE_PRUNE_TO = 0.8;
/** The cache is measured (a walk over every entry) at most this often, and only after a run that wrote. */
export const TAG_CACHE_PRUNE_EVERY_MS = 60 * 60 * 1000;

/**
 * Where tags are cached when the caller names no folder: `$REDLINE_CACHE_DIR/tags`, else
 * `$XDG_CACHE_HOME/redline/tags`, else `~/.cache/redline/tags`.
 */
export function defaultTagCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.REDLINE_CACHE_DIR) return join(env.REDLINE_CACHE_DIR, 'tags');
  const base = env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(base, 'redline', 'tags');
}

/** The key of a file's tags: sha1 of TAGS_VERSION, the grammar (or 'text'), its query hash and the bytes. */
export function tagCacheKey(bytes: Uint8Array, grammar: string | null, queryVersion = ''): string {
  return createHash('sha1').update(`redline-tags ${TAGS_VERSION}\0${grammar ?? 'text'}\0${queryVersion}\0`).update(bytes).digest('hex');
}

/** A file's tags without its path: the same content at two paths shares one entry. */
export type CachedTags = Omit<FileTags, 'file'>;

/** On disk, references are grouped by name (`{"parseDate":[3,9]}`): a third of the size of a list of pairs. */
export interface Entry {
  v: number;
  lang: string | null;
  parsed: boolean;
  defs: Definition[];
  refs: Record<string, number[]>;
}

export interface TagCacheOptions {
  maxBytes?: number;
  pruneEveryMs?: number;
}

/**
 * Tags on disk, one JSON file per content key (`<dir>/<2 hex>/<key>.json`). Every failure is a miss:
 * an unreadable, corrupt or foreign entry is ignored (and overwritten), an unwritable folder only costs
 * the speed-up. Writes are atomic (temporary file, then rename), so a reader never sees half an entry.
 */
export class TagCache {
  readonly maxBytes: number;
  readonly pruneEveryMs: number;
  private wrote = 0;

  constructor(
    readonly dir: string,
    opts: TagCacheOptions = {},
  ) {
    this.maxBytes = opts.maxBytes ?? TAG_CACHE_MAX_BYTES;
    this.pruneEveryMs = opts.pruneEveryMs ?? TAG_CACHE_PRUNE_EVERY_MS;
  }

  private pathOf(key: string): string {
    return join(this.dir, key.slice(0, 2), `${key}.json`);
  }

  /** The cached tags for a key, or undefined for a miss (absent, unreadable, corrupt, another version). */
  get(key: string): CachedTags | undefined {
    let raw: string;
    try {
      // Synchronous: a cache hit is one small read, and the thread-pool round trip would cost more than it.
      raw = readFileSync(this.pathOf(key), 'utf8');
    } catch {
      return undefined;
    }
    try {
      return decodeEntry(JSON.parse(raw) as unknown);
    } catch {
      return undefined;
    }
  }

  /** Stores tags under a key; never throws. */
  async set(key: string, tags: CachedTags): Promise<void> {
    const entry = encodeEntry(tags);
    const to = this.pathOf(key);
    const tmp = `${to}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
    try {
      await mkdir(join(this.dir, key.slice(0, 2)), { recursive: true });
      await writeFile(tmp, JSON.stringify(entry));
      await rename(tmp, to);
      this.wrote++;
    } catch {
      await unlink(tmp).catch(() => undefined);
    }
  }

  /** Prunes when this instance wrote something and the last prune is older than pruneEveryMs. */
  async maybePrune(): Promise<void> {
    if (this.wrote === 0) return;
    const marker = join(this.dir, '.last-prune');
    try {
      const last = (await stat(marker)).mtimeMs;
      if (Date.now() - last < this.pruneEveryMs) return;
    } catch {
      // never pruned
    }
    await this.prune();
    try {
      await writeFile(marker, '');
      const now = new Date();
      await utimes(marker, now, now);
    } catch {
      // an unwritable cache prunes again next time; harmless
    }
  }

  /** Deletes the oldest entries (by write time) until the cache is under TAG_CACHE_PRUNE_TO of its cap. */
  async prune(): Promise<{ entries: number; bytes: number; removed: number }> {
    const files: { path: string; size: number; mtime: number }[] = [];
    let shards: string[] = [];
    try {
      shards = await readdir(this.dir);
    } catch {
      return { entries: 0, bytes: 0, removed: 0 };
    }
    for (const s of shards) {
      if (!/^[0-9a-f]{2}$/.test(s)) continue;
      let names: string[] = [];
      try {
        names = await readdir(join(this.dir, s));
      } catch {
        continue;
      }
      for (const n of names) {
        const p = join(this.dir, s, n);
        try {
          const st = await stat(p);
          // A temporary file older than a minute was left by a killed writer.
          if (n.endsWith('.tmp') && Date.now() - st.mtimeMs > 60_000) await unlink(p);
          else files.push({ path: p, size: st.size, mtime: st.mtimeMs });
        } catch {
          // gone meanwhile
        }
      }
    }
    let bytes = files.reduce((n, f) => n + f.size, 0);
    let removed = 0;
    if (bytes > this.maxBytes) {
      files.sort((a, b) => a.mtime - b.mtime);
      const target = this.maxBytes * TAG_CACHE_PRUNE_TO;
      for (const f of files) {
        if (bytes <= target) break;
        try {
          await unlink(f.path);
          bytes -= f.size;
          removed++;
        } catch {
          // another process removed it
        }
      }
    }
    return { entries: files.length - removed, bytes, removed };
  }
}

/** Validates and expands a stored entry (refs stored as name → lines); undefined when it is not one. */
export function decodeEntry(x: unknown): CachedTags | undefined {
  if (!x || typeof x !== 'object') return undefined;
  const e = x as Partial<Entry>;
  if (e.v !== TAGS_VERSION || typeof e.parsed !== 'boolean' || !Array.isArray(e.defs) || !e.refs || typeof e.refs !== 'object') return undefined;
  if (e.lang !== null && typeof e.lang !== 'string') return undefined;
  for (const d of e.defs) {
    if (!d || typeof d.name !== 'string' || typeof d.kind !== 'string' || typeof d.line !== 'number' || typeof d.endLine !== 'number' || typeof d.signature !== 'string') return undefined;
  }
  const refs: Reference[] = [];
  for (const [name, lines] of Object.entries(e.refs)) {
    if (!Array.isArray(lines)) return undefined;
    for (const line of lines) {
      if (typeof line !== 'number') return undefined;
      refs.push({ name, line });
    }
  }
  return { lang: e.lang ?? null, parsed: e.parsed, defs: e.defs, refs: sortRefs(refs) };
}

/** The stored form of tags: refs grouped as name → lines, which is a third of the size. */
export function encodeEntry(tags: CachedTags): Entry {
  const refs: Record<string, number[]> = Object.create(null) as Record<string, number[]>;
  for (const r of tags.refs) (refs[r.name] ??= []).push(r.line);
  return { v: TAGS_VERSION, lang: tags.lang, parsed: tags.parsed, defs: tags.defs, refs };
}
