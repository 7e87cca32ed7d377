import { randomBytes } from 'node:crypto';
import { readdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type GitHub, type RepoRef, checkRef, openDownload } from './client.js';
import { extractTarball, type ExtractLimits, type ExtractReport } from './extract-tarball.js';
import { MAX_CACHE_BYTES } from './limits.js';

export interface CheckoutOptions extends ExtractLimits {
  /** Root of the cache; checkouts live at <root>/<owner>/<repo>/<sha>. */
  cacheDir: string;
  /** Trim the cache to this many bytes after adding (default MAX_CACHE_BYTES). */
  maxCacheBytes?: number;
}

/** Written into each finished checkout: its size for trimming, and what extraction refused. */
const META = '.redline-checkout.json';

// One download per commit at a time, shared by jobs of the same commit that arrive together.
const inFlight = new Map<string, Promise<string>>();

/**
 * A folder holding the repository at `sha` (from the tarball API, no git needed), reused across jobs
 * of the same commit. Extraction goes to a temp folder renamed into place, so a half-written checkout
 * is never seen; the cache is then trimmed by total size, least recently used first.
 */
export function checkoutAt(gh: GitHub, ref: RepoRef, sha: string, opts: CheckoutOptions): Promise<string> {
  try {
    checkRef(ref, sha);
  } catch (e) {
    return Promise.reject(e);
  }
  const dir = join(opts.cacheDir, ref.owner.toLowerCase(), ref.repo.toLowerCase(), sha);
  const running = inFlight.get(dir);
  if (running) return running;
  const p = (async () => {
    if (await isComplete(dir)) {
      const now = new Date();
      await utimes(dir, now, now); // mark as recently used for trimming
      return dir;
    }
    const tmp = `${dir}.tmp-${randomBytes(6).toString('hex')}`;
    try {
      const body = await openDownload(gh, 'GET /repos/{owner}/{repo}/tarball/{ref}', { ...ref, ref: sha }, `the tarball of ${ref.owner}/${ref.repo}@${sha.slice(0, 7)}`);
      const report = await extractTarball(body, tmp, opts);
      await writeFile(join(tmp, META), JSON.stringify({ bytes: report.bytes, files: report.files, skipped: report.skipped }));
      // Another process (a second `redline worker` on this cache) may have finished the same commit
      // meanwhile, and may be reading it: a complete checkout is kept, never replaced; only a partial
      // leftover is removed before ours takes its place.
      if (await isComplete(dir)) await rm(tmp, { recursive: true, force: true });
      else {
        await rm(dir, { recursive: true, force: true });
        await rename(tmp, dir).catch(async (e: unknown) => {
          if (!(await isComplete(dir))) throw e;
          await rm(tmp, { recursive: true, force: true });
        });
      }
    } catch (e) {
      await rm(tmp, { recursive: true, force: true });
      throw e;
    }
    await trimCache(opts.cacheDir, opts.maxCacheBytes ?? MAX_CACHE_BYTES, dir);
    return dir;
  })().finally(() => inFlight.delete(dir));
  inFlight.set(dir, p);
  return p;
}

/** What extraction wrote and refused for a checkout made by checkoutAt. */
export async function checkoutReport(dir: string): Promise<ExtractReport | undefined> {
  try {
    return JSON.parse(await readFile(join(dir, META), 'utf8')) as ExtractReport;
  } catch {
    return undefined;
  }
}

async function isComplete(dir: string): Promise<boolean> {
  return stat(join(dir, META)).then(() => true, () => false);
}

/** Removes whole checkouts, least recently used first, until the cache is at most `maxBytes` (never `keep`). */
export async function trimCache(root: string, maxBytes: number, keep?: string): Promise<string[]> {
  const entries: { dir: string; bytes: number; used: number }[] = [];
  for (const owner of await readdir(root).catch(() => [] as string[])) {
    for (const repo of await readdir(join(root, owner)).catch(() => [] as string[])) {
      for (const sha of await readdir(join(root, owner, repo)).catch(() => [] as string[])) {
        const dir = join(root, owner, repo, sha);
        const report = await checkoutReport(dir);
        const st = await stat(dir).catch(() => undefined);
        if (!st) continue;
        // A leftover temp folder (a crash mid-extraction) has no report: it goes first.
        entries.push({ dir, bytes: report?.bytes ?? 0, used: report ? st.mtimeMs : 0 });
      }
    }
  }
  let total = entries.reduce((n, e) => n + e.bytes, 0);
  const removed: string[] = [];
  for (const e of entries.sort((a, b) => a.used - b.used)) {
    if (total <= maxBytes && e.used !== 0) break;
    if (e.dir === keep || inFlight.has(e.dir) || [...inFlight.keys()].some((k) => e.dir.startsWith(`${k}.tmp-`))) continue;
    await rm(e.dir, { recursive: true, force: true });
    total -= e.bytes;
    removed.push(e.dir);
  }
  return removed;
}
