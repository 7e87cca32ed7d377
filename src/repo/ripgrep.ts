import { spawn } from 'node:child_process';
import { rgPath } from '@vscode/ripgrep';
import { RG_MAX_OUTPUT_BYTES, RG_TIMEOUT_MS } from '../limits.js';

// TODO(limits): COUNT_MAX_WORDS — rarity scoring needs a handful of identifiers, not a vocabulary;
// one rg run per word, so this bounds the number of processes per diagnosis.
const COUNT_MAX_WORDS = 40;
// TODO(limits): COUNT_TIMEOUT_MS — a rarity count is a hint; a word that takes longer than this to
// count on a checkout is not worth waiting for (its partial count is kept as a lower bound).
const COUNT_TIMEOUT_MS = 5_000;
// TODO(limits): COUNT_CONCURRENCY — rg is itself parallel; a few runs at once hide process start-up
// without oversubscribing the runner.
const COUNT_CONCURRENCY = 4;
/** stderr is only read for error messages: the first part is enough. */
const STDERR_MAX_BYTES = 64 * 1024;

export interface RipgrepOptions {
  /** Directory rg runs in; relative paths in its output are relative to it. */
  cwd: string;
  /** Kill rg after this long (default RG_TIMEOUT_MS). */
  timeoutMs?: number;
  /** Stop rg once it has printed this many bytes (default RG_MAX_OUTPUT_BYTES). */
  maxOutputBytes?: number;
  /** Stop rg once it has printed this many records (lines, or NUL-separated entries with `separator: '\0'`). */
  maxRecords?: number;
  /** Record separator used by `maxRecords` and to drop a partial last record: '\n' (default) or '\0' (with `--null`/`-0`). */
  separator?: '\n' | '\0';
  signal?: AbortSignal;
  /**
   * Streaming mode: each whole record (without its separator) is handed to this callback as it
   * arrives instead of being buffered in `stdout`; return 'stop' to stop rg (the result is then
   * `truncated`). maxOutputBytes does not apply; maxRecordBytes does.
   */
  onRecord?: (record: string) => void | 'stop';
  /**
   * Raw streaming mode: every stdout chunk as it arrives, unsplit and undecoded (the caller bounds
   * what it keeps). Takes precedence over onRecord; no caps apply.
   */
  onChunk?: (chunk: Buffer) => void;
  /** Streaming mode: a record longer than this is skipped and counted in `droppedRecords` (default maxOutputBytes). */
  maxRecordBytes?: number;
}

export interface RipgrepResult {
  /** What rg printed; when cut, it ends on a whole record (the partial last one is dropped). */
  stdout: string;
  /** The start of what rg printed on stderr (warnings, a bad regex). */
  stderr: string;
  /** True when the output was cut at maxOutputBytes / maxRecords and rg was stopped. */
  truncated: boolean;
  /** True when rg ran out of time and was killed. */
  timedOut: boolean;
  /** True when the caller's signal aborted the run. */
  aborted: boolean;
  /** Streaming mode: records skipped for being longer than maxRecordBytes. */
  droppedRecords: number;
  /** rg's exit code: 0 matches, 1 no matches, 2 error; null when it was killed. */
  code: number | null;
}

/**
 * Runs the bundled ripgrep with `--no-config` always first (no RIPGREP_CONFIG_PATH, so nothing in the
 * environment can add flags such as `--pre`), without a shell and with stdin closed. The run is bounded
 * in time and output; exit code 1 (no matches) and 2 (errors) are results, not exceptions. It rejects
 * only when rg cannot be started at all.
 */
export function runRipgrep(args: readonly string[], opts: RipgrepOptions): Promise<RipgrepResult> {
  const timeoutMs = opts.timeoutMs ?? RG_TIMEOUT_MS;
  const maxBytes = opts.maxOutputBytes ?? RG_MAX_OUTPUT_BYTES;
  const maxRecords = opts.maxRecords ?? Infinity;
  const sepByte = opts.separator === '\0' ? 0 : 10;
  const maxRecordBytes = opts.maxRecordBytes ?? maxBytes;

  return new Promise<RipgrepResult>((resolve, reject) => {
    const env = { ...process.env };
    delete env.RIPGREP_CONFIG_PATH;
    const child = spawn(rgPath, ['--no-config', ...args], {
      cwd: opts.cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      env,
      windowsHide: true,
      shell: false,
    });

    const out: Buffer[] = [];
    let outBytes = 0;
    let records = 0;
    const err: Buffer[] = [];
    let errBytes = 0;
    let truncated = false;
    let timedOut = false;
    let aborted = false;
    let settled = false;

    const stop = (): void => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    };
    const timer = setTimeout(() => {
      timedOut = true;
      stop();
    }, timeoutMs);
    const onAbort = (): void => {
      aborted = true;
      stop();
    };
    if (opts.signal) {
      if (opts.signal.aborted) onAbort();
      else opts.signal.addEventListener('abort', onAbort, { once: true });
    }

    let pending: Buffer[] = [];
    let pendingLen = 0;
    let dropping = false;
    let droppedRecords = 0;

    const onBuffered = (chunk: Buffer): void => {
      if (records >= maxRecords) {
        // The cap was reached exactly and rg has more to say: that is a cut.
        truncated = true;
        return;
      }
      let take = chunk.length;
      if (outBytes + take > maxBytes) {
        take = maxBytes - outBytes;
        truncated = true;
      }
      if (maxRecords !== Infinity) {
        for (let at = chunk.indexOf(sepByte); at !== -1 && at < take; at = chunk.indexOf(sepByte, at + 1)) {
          if (++records >= maxRecords) {
            if (at + 1 < chunk.length) truncated = true;
            take = at + 1;
            break;
          }
        }
      }
      if (take > 0) {
        out.push(take === chunk.length ? chunk : chunk.subarray(0, take));
        outBytes += take;
      }
    };

    const onStreamed = (chunk: Buffer, onRecord: (record: string) => void | 'stop'): void => {
      let start = 0;
      for (;;) {
        const at = chunk.indexOf(sepByte, start);
        const piece = chunk.subarray(start, at === -1 ? chunk.length : at);
        if (!dropping) {
          if (pendingLen + piece.length > maxRecordBytes) {
            dropping = true;
            pending = [];
            pendingLen = 0;
          } else if (piece.length > 0) {
            pending.push(piece);
            pendingLen += piece.length;
          }
        }
        if (at === -1) return;
        start = at + 1;
        if (dropping) {
          dropping = false;
          droppedRecords++;
          continue;
        }
        const record = Buffer.concat(pending, pendingLen).toString('utf8');
        pending = [];
        pendingLen = 0;
        records++;
        if (onRecord(record) === 'stop' || records >= maxRecords) {
          truncated = true;
          return;
        }
      }
    };

    child.stdout.on('data', (chunk: Buffer) => {
      if (truncated || timedOut || aborted) return;
      if (opts.onChunk) return opts.onChunk(chunk);
      if (opts.onRecord) onStreamed(chunk, opts.onRecord);
      else onBuffered(chunk);
      if (truncated) stop();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (errBytes >= STDERR_MAX_BYTES) return;
      const part = chunk.subarray(0, STDERR_MAX_BYTES - errBytes);
      err.push(part);
      errBytes += part.length;
    });

    const finish = (code: number | null): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
      let buf = Buffer.concat(out, outBytes);
      if (truncated || timedOut || aborted) {
        // A killed rg may stop mid-record: keep whole records only.
        const last = buf.lastIndexOf(sepByte);
        buf = last === -1 ? Buffer.alloc(0) : buf.subarray(0, last + 1);
      }
      resolve({
        stdout: buf.toString('utf8'),
        stderr: Buffer.concat(err, errBytes).toString('utf8'),
        truncated,
        timedOut,
        aborted,
        droppedRecords,
        code,
      });
    };

    child.on('error', (e) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
      reject(new Error(`could not run ripgrep (${rgPath}): ${e.message}`, { cause: e }));
    });
    child.on('close', (code) => finish(code));
  });
}

/** The file-walking flags every repo-wide rg run shares: hidden files yes, `.git` no, `.gitignore` honoured even outside a git checkout. */
export const WALK_ARGS: readonly string[] = ['--hidden', '--no-require-git', '--glob=!.git', '--path-separator=/'];

export interface CountOptions {
  timeoutMs?: number;
  signal?: AbortSignal;
}

/**
 * For each word, how many files of the checkout contain it as a fixed string (case-sensitive), using
 * the same file set as listRepoFiles. Used to score identifiers by rarity: fewer files, more telling.
 *
 * Bounded: only the first COUNT_MAX_WORDS distinct non-empty single-line words are counted (others are
 * absent from the map); each count is one rg run with a short timeout, and a run that is cut keeps the
 * files counted so far (a lower bound, which still reads as "common").
 */
export async function countFilesContaining(
  root: string,
  words: readonly string[],
  opts: CountOptions = {},
): Promise<Map<string, number>> {
  const unique: string[] = [];
  for (const w of words) {
    if (unique.length >= COUNT_MAX_WORDS) break;
    if (w.length === 0 || /[\r\n\0]/.test(w) || unique.includes(w)) continue;
    unique.push(w);
  }
  const counts = new Map<string, number>();
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < unique.length) {
      const word = unique[next++]!;
      if (opts.signal?.aborted) return;
      const res = await runRipgrep(
        [...WALK_ARGS, '--files-with-matches', '--fixed-strings', '--max-count=1', '--null', '--', word, '.'],
        { cwd: root, timeoutMs: opts.timeoutMs ?? COUNT_TIMEOUT_MS, separator: '\0', signal: opts.signal },
      );
      let n = 0;
      for (let i = res.stdout.indexOf('\0'); i !== -1; i = res.stdout.indexOf('\0', i + 1)) n++;
      counts.set(word, n);
    }
  };
  await Promise.all(Array.from({ length: Math.min(COUNT_CONCURRENCY, unique.length) }, worker));
  return counts;
}
