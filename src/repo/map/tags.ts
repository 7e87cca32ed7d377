import { loadPack, packHit, savePack } from './tag-pack.js';
import { closeSync, fstatSync, openSync, readSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import type { Workspace } from '../workspace.js';
import { isInside } from '../../safety/confine.js';
import type { FileTags } from './types.js';
import { grammarFor, loadGrammar, queryHash, type GrammarId } from './languages.js';
import { textTags } from './text-tags.js';
import { tooBroken, treeTags } from './tree-tags.js';
import { TagCache, defaultTagCacheDir, tagCacheKey } from './tag-cache.js';

/** Files bigger than this are not tagged at all (empty tags): generated bundles, data, vendored blobs. */
export const MAX_TAG_FILE_BYTES = 2 * 1024 * 1024;
/** Files bigger than this get the text tagger instead of a parse: a tree of a huge file costs memory and time for little. */
export const MAX_PARSE_BYTES = 512 * 1024;
/** A parse running longer than this is cancelled (pathological input) and the text tagger used. */
export const PARSE_TIMEOUT_MS = 2_000;
/** Files read and tagged at once: overlaps disk reads with parsing without opening thousands of files. */
export const TAG_CONCURRENCY = 16;
/** A file whose first this-many bytes hold a NUL is binary: no tags. */
const BINARY_SNIFF_BYTES = 8192;

export interface TagOptions {
  /** Tag cache folder; `false` turns the disk cache off. Default: defaultTagCacheDir(). */
  cacheDir?: string | false;
  /** A cache to share between calls (wins over cacheDir). */
  cache?: TagCache;
  /** Files tagged at once in tagsForFiles (default TAG_CONCURRENCY). */
  concurrency?: number;
  /** Counters filled in as files are tagged (for timings and tests). */
  stats?: TagStats;
}

export interface TagStats {
  files: number;
  cacheHits: number;
  /** Tagged from a syntax tree. */
  parsed: number;
  /** Tagged by the text tagger (no grammar, parse failure, too broken, too big to parse). */
  fallback: number;
  /** Not tagged: binary, too big, unreadable, outside the workspace. */
  skipped: number;
}

/** Fresh zeroed counters for TagOptions.stats. */
export function newTagStats(): TagStats {
  return { files: 0, cacheHits: 0, parsed: 0, fallback: 0, skipped: 0 };
}

const caches = new Map<string, TagCache>();

function cacheFor(opts: TagOptions): TagCache | undefined {
  if (opts.cache) return opts.cache;
  if (opts.cacheDir === false) return undefined;
  const dir = opts.cacheDir ?? defaultTagCacheDir();
  let c = caches.get(dir);
  if (!c) caches.set(dir, (c = new TagCache(dir)));
  return c;
}

/**
 * Tags one file of the workspace: from its syntax tree when it has a grammar and parses cleanly, else
 * from the text tagger (`parsed: false`); empty for binary, oversized, unreadable or outside files.
 * Cached on disk by content. Never throws.
 */
export async function fileTags(ws: Pick<Workspace, 'root'>, file: string, opts: TagOptions = {}): Promise<FileTags> {
  const cache = cacheFor(opts);
  const t = await tagOne(realRootOf(ws.root), file, cache, opts.stats);
  await cache?.maybePrune();
  return t;
}

/**
 * Tags many files, TAG_CONCURRENCY at a time, sharing one cache. The map follows the order of `files`
 * (each file once). Never throws.
 */
export async function tagsForFiles(ws: Pick<Workspace, 'root'>, files: readonly string[], opts: TagOptions = {}): Promise<Map<string, FileTags>> {
  const cache = cacheFor(opts);
  const unique = [...new Set(files)];
  const results: FileTags[] = new Array<FileTags>(unique.length);
  const root = realRootOf(ws.root);
  // The repository's pack first (stat only); the content-hash cache and the parser for what changed.
  const pack = cache ? loadPack(cache.dir, root) : undefined;
  let missed = 0;
  let next = 0;
  const worker = async () => {
    while (next < unique.length) {
      const i = next++;
      const packed = pack && packHit(pack, unique[i]!);
      if (packed) {
        if (opts.stats) (opts.stats.files++, opts.stats.cacheHits++);
        results[i] = packed;
        continue;
      }
      missed++;
      results[i] = await tagOne(root, unique[i]!, cache, opts.stats);
      // A warm run never waits on anything: let timers and signals through now and then.
      if (i % 256 === 255) await new Promise<void>((r) => setImmediate(r));
    }
  };
  const n = Math.max(1, Math.min(opts.concurrency ?? TAG_CONCURRENCY, unique.length));
  await Promise.all(Array.from({ length: n }, worker));
  await cache?.maybePrune();
  const out = new Map(unique.map((f, i) => [f, results[i]!]));
  if (pack && (missed > 0 || pack.files.size !== unique.length)) savePack(pack, out);
  return out;
}

/**
 * Tags a file's text without touching the disk: tree-sitter when the grammar loads and the parse is
 * sound, the text tagger otherwise. `cacheable` is false when the fallback came from a passing
 * condition (a grammar that did not load, a parse that timed out) that must not be remembered.
 */
export async function tagSource(file: string, text: string, lang: GrammarId | null = grammarFor(file)): Promise<FileTags & { cacheable: boolean }> {
  if (!lang) return { ...textTags(file, text, null), cacheable: true };
  if (text.length > MAX_PARSE_BYTES) return { ...textTags(file, text, lang), cacheable: true };
  let g;
  try {
    g = await loadGrammar(lang);
  } catch {
    return { ...textTags(file, text, lang), cacheable: false };
  }
  const started = performance.now();
  let timedOut = false;
  let tree;
  try {
    tree = g.parser.parse(text, null, {
      progressCallback: (() => (timedOut = performance.now() - started > PARSE_TIMEOUT_MS)) as () => void,
    });
  } catch {
    tree = null;
  }
  if (!tree) {
    g.parser.reset();
    return { ...textTags(file, text, lang), cacheable: !timedOut };
  }
  try {
    const lineCount = text.split('\n').length;
    if (tooBroken(tree, lineCount)) return { ...textTags(file, text, lang), cacheable: true };
    return { ...treeTags(file, g, tree, text), cacheable: true };
  } catch {
    return { ...textTags(file, text, lang), cacheable: true };
  } finally {
    tree.delete();
  }
}

function empty(file: string): FileTags {
  return { file, lang: null, defs: [], refs: [], parsed: false };
}

async function tagOne(root: string, file: string, cache: TagCache | undefined, stats: TagStats | undefined): Promise<FileTags> {
  if (stats) stats.files++;
  const bytes = readBounded(root, file);
  if (!bytes || bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0)) {
    if (stats) stats.skipped++;
    return empty(file);
  }
  const lang = grammarFor(file);
  let key: string | undefined;
  try {
    key = cache ? tagCacheKey(bytes, lang, lang ? queryHash(lang) : '') : undefined;
  } catch {
    key = undefined; // a query file that cannot be read: tag without the cache
  }
  if (cache && key) {
    const hit = cache.get(key);
    if (hit) {
      if (stats) stats.cacheHits++;
      return { file, ...hit };
    }
  }
  const { cacheable, ...tags } = await tagSource(file, bytes.toString('utf8'), lang);
  if (stats) tags.parsed ? stats.parsed++ : stats.fallback++;
  if (cache && key && cacheable) await cache.set(key, { lang: tags.lang, parsed: tags.parsed, defs: tags.defs, refs: tags.refs });
  return tags;
}

/**
 * The file's bytes, or undefined when it is missing, not a regular file, over MAX_TAG_FILE_BYTES, or
 * (through a symlink) outside the workspace. Synchronous on purpose: a warm run is one small read per
 * file plus one cache read, and the promise API's thread-pool round trips cost 4x the reads themselves.
 */
function readBounded(realRoot: string, file: string): Buffer | undefined {
  let fd: number | undefined;
  try {
    const abs = join(realRoot, file);
    const real = realpathSync.native(abs);
    if (!isInside(realRoot, real)) return undefined;
    fd = openSync(real, 'r');
    const st = fstatSync(fd);
    if (!st.isFile() || st.size > MAX_TAG_FILE_BYTES) return undefined;
    const buf = Buffer.allocUnsafe(st.size);
    let got = 0;
    while (got < st.size) {
      const n = readSync(fd, buf, got, st.size - got, got);
      if (n === 0) break;
      got += n;
    }
    return got === st.size ? buf : buf.subarray(0, got);
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** realpath of the workspace root (once per call), or the root as given when it cannot be resolved. */
function realRootOf(root: string): string {
  try {
    return realpathSync.native(root);
  } catch {
    return root;
  }
}
