/**
 * The diagnosis artifacts the App keeps for people to check a comment: the raw log (its head), the
 * cleaned log, the diagnosis and the trace, all redacted (DESIGN.md §8: artifacts leave the process).
 * Behind a small interface so an object store can replace the local folder later.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough, type Readable } from 'node:stream';
import type { DiagnoseTrace } from '../diagnose.js';
import { cleanedLogText, traceJsonText } from '../report/artifacts.js';
import { renderJson } from '../report/json.js';
import { redactedText } from '../safety/redact-outgoing.js';
import type { Diagnosis } from '../types.js';

/** The only names an artifact can have: anything else in a URL is a 404, so no path ever comes from a request. */
export const ARTIFACT_NAMES = ['raw.log', 'cleaned.log', 'diagnosis.json', 'trace.json'] as const;
export type ArtifactName = (typeof ARTIFACT_NAMES)[number];
export const isArtifactName = (s: string): s is ArtifactName => (ARTIFACT_NAMES as readonly string[]).includes(s);

/** Ids are 18 random bytes (144 bits), base64url: unguessable, and safe as a folder name. */
const ID = /^[A-Za-z0-9_-]{24}$/;
export const isArtifactId = (s: string): boolean => ID.test(s);
export const newArtifactId = (): string => randomBytes(18).toString('base64url');

/** Default lifetime of artifacts and their links. */
export const DEFAULT_ARTIFACT_TTL_S = 7 * 24 * 3600;
/** Default size of the whole store; the oldest artifacts go first. */
export const DEFAULT_ARTIFACT_STORE_BYTES = 1024 * 1024 * 1024;
/** The raw log is kept up to this many bytes (its head; the cleaned log has the lines that mattered). */
export const ARTIFACT_RAW_MAX_BYTES = 16 * 1024 * 1024;

export type ArtifactFiles = Record<ArtifactName, string>;

export interface ArtifactStore {
  /** Stores one diagnosis's files; returns their new id. */
  put(files: ArtifactFiles): Promise<string>;
  /** The content of one file, or undefined when the id or file is unknown (or expired and removed). */
  get(id: string, name: ArtifactName): Promise<Buffer | undefined>;
}

interface Entry {
  id: string;
  bytes: number;
  createdMs: number;
}

/**
 * Artifacts in a local folder, one sub-folder per id. Written to a temporary name and renamed, so a
 * reader never sees half an artifact. Bounded by total size (oldest first) and by age.
 */
export class LocalArtifactStore implements ArtifactStore {
  private index: Promise<Entry[]> | undefined;
  private chain: Promise<unknown> = Promise.resolve();

  constructor(
    readonly dir: string,
    private readonly opts: { maxBytes?: number; ttlS?: number; now?: () => number } = {},
  ) {}

  private now(): number {
    return this.opts.now?.() ?? Date.now();
  }

  /** The store's entries, read from disk once (a restart keeps earlier artifacts and their bounds). */
  private entries(): Promise<Entry[]> {
    return (this.index ??= (async () => {
      await mkdir(this.dir, { recursive: true, mode: 0o700 });
      const out: Entry[] = [];
      for (const name of await readdir(this.dir)) {
        const p = join(this.dir, name);
        if (!isArtifactId(name)) {
          // A temporary folder left by a crash.
          if (name.startsWith('.tmp-')) await rm(p, { recursive: true, force: true });
          continue;
        }
        let bytes = 0;
        try {
          const st = await stat(p);
          for (const f of ARTIFACT_NAMES) bytes += (await stat(join(p, f)).catch(() => undefined))?.size ?? 0;
          out.push({ id: name, bytes, createdMs: st.mtimeMs });
        } catch {
          // gone meanwhile
        }
      }
      return out.sort((a, b) => a.createdMs - b.createdMs);
    })());
  }

  put(files: ArtifactFiles): Promise<string> {
    // One writer at a time: the index and the pruning stay consistent.
    const run = this.chain.then(() => this.putNow(files));
    this.chain = run.catch(() => {});
    return run;
  }

  private async putNow(files: ArtifactFiles): Promise<string> {
    const entries = await this.entries();
    const id = newArtifactId();
    const tmp = join(this.dir, `.tmp-${id}`);
    await mkdir(tmp, { mode: 0o700 });
    let bytes = 0;
    try {
      for (const name of ARTIFACT_NAMES) {
        const data = Buffer.from(await redactedText(files[name]), 'utf8'); // the one redactor (redact-outgoing.ts)
        bytes += data.length;
        await writeFile(join(tmp, name), data, { mode: 0o600 });
      }
      await rename(tmp, join(this.dir, id));
    } catch (e) {
      await rm(tmp, { recursive: true, force: true });
      throw e;
    }
    entries.push({ id, bytes, createdMs: this.now() });
    await this.prune(entries);
    return id;
  }

  /** Drops expired artifacts, then the oldest until the store fits its size. */
  private async prune(entries: Entry[]): Promise<void> {
    const max = this.opts.maxBytes ?? DEFAULT_ARTIFACT_STORE_BYTES;
    const oldest = this.now() - (this.opts.ttlS ?? DEFAULT_ARTIFACT_TTL_S) * 1000;
    let total = entries.reduce((s, e) => s + e.bytes, 0);
    while (entries.length && (entries[0]!.createdMs < oldest || total > max)) {
      const e = entries.shift()!;
      total -= e.bytes;
      await rm(join(this.dir, e.id), { recursive: true, force: true });
    }
  }

  async get(id: string, name: ArtifactName): Promise<Buffer | undefined> {
    // Both checks again here: the store never builds a path from unchecked text, whoever calls it.
    if (!isArtifactId(id) || !isArtifactName(name)) return undefined;
    try {
      return await readFile(join(this.dir, id, name));
    } catch {
      return undefined;
    }
  }
}

/** Signs and checks artifact links: HMAC-SHA256 over id, name and expiry (unix seconds). */
export class ArtifactSigner {
  constructor(private readonly key: Buffer) {
    if (key.length < 16) throw new Error('artifact signing key too short (16 bytes at least)');
  }

  sign(id: string, name: string, exp: number): string {
    return createHmac('sha256', this.key).update(`${id}\n${name}\n${exp}`).digest('hex');
  }

  /** Constant-time: the comparison does not say how much of a forged signature was right. */
  verify(id: string, name: string, exp: number, sig: string): boolean {
    const want = Buffer.from(this.sign(id, name, exp), 'utf8');
    const got = Buffer.from(sig, 'utf8');
    return got.length === want.length && timingSafeEqual(got, want);
  }

  /** `<base>/redline/artifacts/<id>/<name>?exp=…&sig=…` */
  url(publicUrl: string, id: string, name: string, exp: number): string {
    return `${publicUrl.replace(/\/+$/, '')}/redline/artifacts/${id}/${encodeURIComponent(name)}?exp=${exp}&sig=${this.sign(id, name, exp)}`;
  }
}

/** The signing key: REDLINE_ARTIFACT_KEY as given, else derived from the webhook secret, else random (links die on restart). */
export function artifactKey(o: { key?: string | undefined; webhookSecret?: string | undefined }): { key: Buffer; source: 'key' | 'webhook-secret' | 'random' } {
  if (o.key) return { key: createHmac('sha256', 'redline-artifact-key').update(o.key).digest(), source: 'key' };
  if (o.webhookSecret) return { key: createHmac('sha256', o.webhookSecret).update('redline artifact links v1').digest(), source: 'webhook-secret' };
  return { key: randomBytes(32), source: 'random' };
}

/**
 * Keeps the head of a log stream as it flows to `diagnose` (up to `max` bytes), without slowing it:
 * the bytes pass through untouched. A gzip stream is not kept (the raw artifact is text).
 */
export function keepLogHead(log: Readable, max = ARTIFACT_RAW_MAX_BYTES): { log: Readable; text(): string } {
  const chunks: Buffer[] = [];
  let kept = 0;
  let seen = 0;
  const out = new PassThrough();
  log.on('data', (c: Buffer | string) => {
    const b = Buffer.isBuffer(c) ? c : Buffer.from(c);
    seen += b.length;
    if (kept < max) {
      const part = b.subarray(0, max - kept);
      chunks.push(part);
      kept += part.length;
    }
  });
  log.on('error', (e) => out.destroy(e));
  // Destroying what diagnose reads (it stops early on a huge log) stops the download too.
  out.on('close', () => {
    if (!log.destroyed && !log.readableEnded) log.destroy();
  });
  log.pipe(out);
  return {
    log: out,
    text: () => {
      const all = Buffer.concat(chunks);
      if (all.length >= 2 && all[0] === 0x1f && all[1] === 0x8b) return '[redline: the log was gzip-compressed; not kept as text]\n';
      const note = seen > kept ? `\n[redline: raw log cut after ${kept} of ${seen}+ bytes]\n` : '';
      return all.toString('utf8') + note;
    },
  };
}

/** The files of one diagnosis; `put` redacts each before it is written (once: the raw log is the big one). */
export function artifactFiles(input: { rawText: string; diagnosis: Diagnosis; trace: DiagnoseTrace }): ArtifactFiles {
  return {
    'raw.log': input.rawText,
    'cleaned.log': cleanedLogText(input.trace),
    'diagnosis.json': renderJson(input.diagnosis),
    'trace.json': traceJsonText(input.trace),
  };
}
