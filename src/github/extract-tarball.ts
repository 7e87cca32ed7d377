import { mkdir } from 'node:fs/promises';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import * as tar from 'tar';
import { TooLargeError } from './errors.js';
import { MAX_EXTRACTED_BYTES, MAX_TAR_ENTRIES, MAX_TARBALL_BYTES } from './limits.js';

export interface ExtractLimits {
  maxCompressedBytes?: number;
  maxExtractedBytes?: number;
  maxEntries?: number;
}

export interface ExtractReport {
  /** Bytes of files written. */
  bytes: number;
  files: number;
  /** Entries refused, with why (links, devices, absolute or `..` paths): for the trace, never fatal. */
  skipped: { path: string; why: string }[];
}

/** Only plain files and folders are written: links could point out of the checkout, devices are never source. */
const ALLOWED = new Set(['File', 'OldFile', 'ContiguousFile', 'Directory']);

/** Why an entry path is unsafe, or undefined when it is a plain relative path. */
export function unsafePath(p: string): string | undefined {
  if (p.startsWith('/') || p.startsWith('\\') || /^[A-Za-z]:/.test(p)) return 'absolute path';
  if (p.split(/[\\/]+/).includes('..')) return 'climbs out with ..';
  if (p.includes('\0')) return 'NUL in path';
  return undefined;
}

/** Counts bytes through a pipe and fails it with TooLargeError past `limit`. */
export function byteCap(limit: number, what: string): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      seen += chunk.length;
      if (seen > limit) done(new TooLargeError(what, limit));
      else done(null, chunk);
    },
  });
}

/**
 * Extracts a GitHub tarball (gzip, one top folder `owner-repo-sha/`) into `dest`, stripping the top
 * folder. Hostile archives are expected (fork PRs): absolute and `..` paths, symlinks, hardlinks and
 * device files are skipped, never written; the compressed stream, the inflated tar stream and the
 * entry count are each capped, so a gzip bomb stops at the cap instead of filling the disk.
 */
export async function extractTarball(input: Readable, dest: string, limits: ExtractLimits = {}): Promise<ExtractReport> {
  const maxEntries = limits.maxEntries ?? MAX_TAR_ENTRIES;
  const report: ExtractReport = { bytes: 0, files: 0, skipped: [] };
  let entries = 0;
  let entryError: Error | undefined;
  await mkdir(dest, { recursive: true });
  const unpack = new tar.Unpack({
    cwd: dest,
    strip: 1,
    preservePaths: false,
    // Running as root must not hand files to the archive's uid/gid, nor keep setuid bits.
    preserveOwner: false,
    fmode: 0o644,
    dmode: 0o755,
    filter: (path, entry) => {
      const e = entry as tar.ReadEntry;
      if (++entries > maxEntries && !entryError) entryError = new TooLargeError(`the archive's entry count`, maxEntries);
      if (entryError) return false;
      const why = !ALLOWED.has(e.type) ? `${e.type} entries are not extracted` : unsafePath(path);
      if (why) {
        if (report.skipped.length < 100) report.skipped.push({ path: path.slice(0, 300), why });
        return false;
      }
      // No setuid/setgid/sticky or world-writable bits from a hostile archive: nothing here is ever run.
      if (e.mode) e.mode &= 0o755;
      if (e.type !== 'Directory') {
        report.files++;
        report.bytes += e.size ?? 0;
      }
      return true;
    },
  });
  const stopOnEntryError = new Transform({
    transform(chunk: Buffer, _enc, done) {
      done(entryError ?? null, chunk);
    },
  });
  // tar's Unpack is not a Node stream (pipeline() cannot take it): pipe into it and wait for its close.
  const unpacked = new Promise<void>((resolve, reject) => {
    unpack.on('close', resolve);
    unpack.on('error', reject);
  });
  stopOnEntryError.pipe(unpack as unknown as NodeJS.WritableStream);
  try {
    await Promise.all([
      pipeline(
        input,
        byteCap(limits.maxCompressedBytes ?? MAX_TARBALL_BYTES, 'the repository tarball'),
        createGunzip(),
        byteCap(limits.maxExtractedBytes ?? MAX_EXTRACTED_BYTES, 'the unpacked repository tarball'),
        stopOnEntryError,
      ),
      unpacked,
    ]);
  } catch (e) {
    input.destroy();
    throw entryError ?? e;
  }
  if (entryError) throw entryError;
  return report;
}
