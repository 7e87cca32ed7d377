import { closeSync, fstatSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import * as vm from 'node:vm';

/**
 * V8's code cache for a CommonJS bundle: the bundle is compiled through `vm.Script` with the bytes V8
 * serialised after an earlier run, which skips parsing and compiling every function that run used
 * (issue 12; README, "Start-up"). Used on every Node: `module.enableCompileCache()` (Node ≥ 22) writes its
 * bytes when a module is compiled, before it runs, so they hold little more than its top level. The bytes are kept
 * in a per-user folder, one file per Node version and bundle build; V8 checks its own version, flags and
 * the source's length and rejects anything else, a rejected or unreadable file only means a compile
 * from source, and every failure to read or write the cache is ignored: the cache can make a run faster,
 * never different.
 *
 * File layout: one JSON line (`CacheHeader`), then V8's bytes.
 */
interface CacheHeader {
  /** The bundle's size and mtime when the bytes were made: a bundle edited in place is not the one built. */
  size: number;
  mtimeMs: number;
  /** The kinds of run whose functions the bytes hold (see `loadWithCodeCache`'s `kind`). */
  kinds: string[];
}

/**
 * At most this many kinds of run are recorded in one cache file: each new kind rewrites the file once (so
 * its functions are cached too), and past this a run uses what is there without rewriting.
 */
const MAX_CACHE_KINDS = 16;
/** A cache file larger than this is not read: a diagnosis's functions are ~0.7 MB of V8 data. */
const MAX_CACHE_BYTES = 32 << 20;
const FILE_PREFIX = 'cli-';
/** A temporary file this old is a killed writer's (a write takes milliseconds), not one being written. */
const STALE_TMP_MS = 10 * 60_000;

/** What `loadWithCodeCache` returns: the bundle's exports, and `save()` to call once the run is done. */
export interface CachedBundle<T> {
  exports: T;
  /** Writes the cache when it was missing, rejected, or did not hold this kind of run. Never throws. */
  save(): void;
}

/**
 * Where the cache may live, in order: `$REDLINE_CACHE_DIR/code` when set, else `$XDG_CACHE_HOME/redline/code`
 * (or `~/.cache/redline/code`, beside the tag cache's `tags`), then a folder of this user's own in
 * `os.tmpdir()` for a home that cannot be written. None when `NODE_DISABLE_COMPILE_CACHE=1`: Node's own
 * switch for its compile cache (Node ≥ 22) turns this one off too.
 */
export function codeCacheDirs(env: NodeJS.ProcessEnv = process.env): string[] {
  if (env.NODE_DISABLE_COMPILE_CACHE === '1') return [];
  if (env.REDLINE_CACHE_DIR) return [join(env.REDLINE_CACHE_DIR, 'code')];
  return [join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'redline', 'code'), join(tmpdir(), `redline-code-cache-${process.getuid?.() ?? 'user'}`)];
}

/**
 * Loads the CommonJS bundle `file` (built by scripts/build-cli.mjs) with V8's code cache from `dirs`.
 * `build` names the bundle's build (its content hash), `kind` the sort of run (e.g. the command and its
 * flags): the functions a run compiles are cached after it, so a kind not seen before rewrites the file.
 */
export function loadWithCodeCache<T>(file: string, { build, kind, dirs }: { build: string; kind: string; dirs: string[] }): CachedBundle<T> {
  const source = readFileSync(file, 'utf8');
  const { size, mtimeMs } = statSync(file);
  const name = `${FILE_PREFIX}${process.version}-${process.arch}-${build}.v8`;
  const found = readCache(dirs, name, size, mtimeMs);
  // The same wrapper as Node's CommonJS loader, on the bundle's first line: line numbers stay the file's.
  const wrapped = `(function (exports, require, module, __filename, __dirname) {${source}\n})`;
  const script = new vm.Script(wrapped, {
    filename: file,
    ...(found ? { cachedData: found.data } : {}),
    // The bundle has no import() of its own (esbuild turns them into require); this keeps any that a
    // dependency's code would run working as in a module Node loaded itself.
    importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  const module = { exports: {} as T };
  (script.runInThisContext() as (...args: unknown[]) => void).call(module.exports, module.exports, createRequire(file), module, file, dirname(file));
  const accepted = found !== undefined && script.cachedDataRejected !== true;
  return {
    exports: module.exports,
    save() {
      if (accepted && (found.header.kinds.includes(kind) || found.header.kinds.length >= MAX_CACHE_KINDS)) return;
      const kinds = accepted ? [...found.header.kinds, kind] : [kind];
      try {
        writeCache(found && accepted ? [found.dir] : dirs, name, { size, mtimeMs, kinds }, script.createCachedData());
      } catch {
        // No cache this time: the next run compiles from source again.
      }
    },
  };
}

function readCache(dirs: string[], name: string, size: number, mtimeMs: number): { dir: string; header: CacheHeader; data: Buffer } | undefined {
  for (const dir of dirs) {
    let bytes: Buffer;
    try {
      if (!safeDir(dir)) continue;
      const fd = openSync(join(dir, name), 'r');
      try {
        if (fstatSync(fd).size > MAX_CACHE_BYTES) continue;
        bytes = readFileSync(fd);
      } finally {
        closeSync(fd);
      }
    } catch {
      continue;
    }
    const nl = bytes.indexOf(10);
    if (nl < 0) return undefined;
    try {
      const header = JSON.parse(bytes.subarray(0, nl).toString('utf8')) as CacheHeader;
      if (header.size !== size || header.mtimeMs !== mtimeMs || !Array.isArray(header.kinds)) return undefined;
      return { dir, header, data: bytes.subarray(nl + 1) };
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** Written to a temporary file and renamed over the old one: a run beside this one reads the old or the new file, never half of one. */
function writeCache(dirs: string[], name: string, header: CacheHeader, data: Buffer): void {
  for (const dir of dirs) {
    try {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      if (!safeDir(dir)) continue;
      const tmp = join(dir, `.${name}.${process.pid}.tmp`);
      writeFileSync(tmp, Buffer.concat([Buffer.from(JSON.stringify(header) + '\n'), data]), { mode: 0o600 });
      renameSync(tmp, join(dir, name));
      prune(dir, name);
      return;
    } catch {
      // Try the next folder.
    }
  }
}

/**
 * The bytes are code this process runs: a folder another user could write to (a shared /tmp's) is not
 * used. On a system without uids (Windows) the check is left to the folder's own permissions.
 */
function safeDir(dir: string): boolean {
  const uid = process.getuid?.();
  if (uid === undefined) return true;
  const st = statSync(dir);
  return st.isDirectory() && st.uid === uid && (st.mode & 0o022) === 0;
}

/**
 * Removes this Node's cache files of other builds (a rebuilt or updated Redline), so the folder stays one
 * file per Node version, and the temporary files of writers killed before their rename.
 */
function prune(dir: string, keep: string): void {
  const own = `${FILE_PREFIX}${process.version}-${process.arch}-`;
  for (const f of readdirSync(dir)) {
    if (f.startsWith(own) && f !== keep) rmSync(join(dir, f), { force: true });
    else if (f.startsWith(`.${FILE_PREFIX}`) && f.endsWith('.tmp') && Date.now() - statSync(join(dir, f)).mtimeMs > STALE_TMP_MS) rmSync(join(dir, f), { force: true });
  }
}
