import { createReadStream, readSync } from 'node:fs';
import { setImmediate as yieldNow } from 'node:timers/promises';
import { open, stat } from 'node:fs/promises';
import { createGunzip } from 'node:zlib';
import type { Readable } from 'node:stream';
import { LogReadError } from '../errors.js';
import { READ_CHUNK_BYTES, MAX_LOG_BYTES, STDIN_CHUNK_BYTES } from '../limits.js';

/** gunzip's output size: 1 MB outputs pay a quarter of 256 KB chunks' per-chunk cost (measured ~0.25 s of CPU per GB less). */
const GUNZIP_CHUNK_BYTES = 1024 * 1024;

/** Where a log comes from: a path, `-` for stdin, or any byte stream (an HTTP response in the App). */
export type LogSource = string | Readable;

const GZIP_MAGIC_0 = 0x1f;
const GZIP_MAGIC_1 = 0x8b;
/** UTF-16LE's byte-order mark: what Windows PowerShell 5's `>` and `Out-File` write (`gh run view --log > x.txt`). */
const UTF16LE_BOM_0 = 0xff;
const UTF16LE_BOM_1 = 0xfe;

/** Whether these first bytes are UTF-16LE's byte-order mark. */
export const startsUtf16le = (b: Buffer): boolean => b.length >= 2 && b[0] === UTF16LE_BOM_0 && b[1] === UTF16LE_BOM_1;

/** Whether the file at `path` starts with UTF-16LE's byte-order mark (it is read through the transcoding stream). */
export async function isUtf16leFile(path: string): Promise<boolean> {
  const fh = await open(path, 'r');
  try {
    const b = Buffer.alloc(2);
    await fh.read(b, 0, 2, 0);
    return startsUtf16le(b);
  } finally {
    await fh.close();
  }
}

/** Whether the file at `path` starts with gzip's magic bytes (not its name: users hand us `.log` that are gzip). */
export async function isGzipFile(path: string): Promise<boolean> {
  const fh = await open(path, 'r');
  try {
    const b = Buffer.alloc(2);
    await fh.read(b, 0, 2, 0);
    return b[0] === GZIP_MAGIC_0 && b[1] === GZIP_MAGIC_1;
  } finally {
    await fh.close();
  }
}

/**
 * Streams the bytes of a log, gunzipping when the first bytes say gzip (Actions serves plain text, users
 * and other CIs hand us .gz), and stops after MAX_LOG_BYTES of output so a decompression bomb or an
 * endless stdin cannot hold us. Yields Buffers; sets `state.capped` when it stopped early.
 */
export async function* openLog(source: LogSource, state: { capped: boolean } = { capped: false }): AsyncGenerator<Buffer> {
  const input = source === '-' ? stdinSource() : await openStream(source);
  let first: Buffer | undefined;
  const it = input[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const head = await it.next();
  if (head.done) return;
  first = Buffer.isBuffer(head.value) ? head.value : Buffer.from(head.value);
  // A network body can arrive a byte at a time: the gzip magic needs its two bytes before we decide.
  while (first.length < 2) {
    const more = await it.next();
    if (more.done) break;
    first = Buffer.concat([first, Buffer.isBuffer(more.value) ? more.value : Buffer.from(more.value)]);
  }
  const gz = first.length >= 2 && first[0] === GZIP_MAGIC_0 && first[1] === GZIP_MAGIC_1;
  let total = 0;
  const emit = (b: Buffer): Buffer | null => {
    if (total >= MAX_LOG_BYTES) return null;
    const room = MAX_LOG_BYTES - total;
    total += Math.min(room, b.length);
    if (b.length > room) {
      state.capped = true;
      return b.subarray(0, room);
    }
    return b;
  };
  if (!gz && startsUtf16le(first)) {
    // A log saved by Windows PowerShell is UTF-16LE: read as UTF-8 every other byte is NUL and no pattern
    // matches. Transcoded to UTF-8 (the BOM dropped); a newline stays a newline, so line numbers are the
    // file's own. Odd chunk borders are carried by the decoder's stream mode.
    const dec = new TextDecoder('utf-16le');
    let chunk: Buffer | null = first;
    for (;;) {
      const text = dec.decode(chunk ?? new Uint8Array(0), { stream: chunk !== null });
      const out = text ? emit(Buffer.from(text, 'utf8')) : Buffer.alloc(0);
      if (!out) {
        state.capped = true;
        input.destroy();
        return;
      }
      if (out.length) yield out;
      if (chunk === null) return;
      const r = await it.next();
      chunk = r.done ? null : Buffer.isBuffer(r.value) ? r.value : Buffer.from(r.value);
    }
  }
  if (!gz) {
    const b = emit(first);
    if (b) yield b;
    for (;;) {
      const r = await it.next();
      if (r.done) return;
      const out = emit(Buffer.isBuffer(r.value) ? r.value : Buffer.from(r.value));
      if (!out) {
        state.capped = true;
        input.destroy();
        return;
      }
      yield out;
    }
  }
  const gunzip = createGunzip({ chunkSize: GUNZIP_CHUNK_BYTES });
  // Feed the gunzip from the source in the background; errors surface through the gunzip stream.
  void (async () => {
    try {
      if (!gunzip.write(first)) await new Promise((r) => gunzip.once('drain', r));
      for (;;) {
        const r = await it.next();
        if (r.done || gunzip.destroyed) break;
        if (!gunzip.write(r.value)) await new Promise((res) => gunzip.once('drain', res));
      }
      gunzip.end();
    } catch (e) {
      gunzip.destroy(e as Error);
    }
  })();
  try {
    for await (const chunk of gunzip) {
      const out = emit(chunk as Buffer);
      if (!out) {
        state.capped = true;
        break;
      }
      yield out;
    }
  } catch (e) {
    // A truncated or corrupt gzip still gave us what it could; say so instead of failing the diagnosis.
    if ((e as NodeJS.ErrnoException).code === 'Z_BUF_ERROR' || (e as NodeJS.ErrnoException).code === 'Z_DATA_ERROR') {
      state.capped = true;
      return;
    }
    throw new LogReadError(describe(source), `could not decompress the log: ${(e as Error).message}`, { cause: e });
  } finally {
    gunzip.destroy();
    input.destroy();
  }
}

/** What openLog reads from: a stream, or stdin read straight from its file descriptor. */
interface ByteSource {
  [Symbol.asyncIterator](): AsyncIterator<Buffer | string>;
  destroy(): void;
}

/** Chunks between yields to the event loop while stdin is read synchronously (the workspace's children still get read). */
const STDIN_YIELD_EVERY = 16;

/**
 * stdin read from fd 0 with synchronous reads into fresh STDIN_CHUNK_BYTES buffers, not through
 * process.stdin: its stream hands over 64 KB a chunk, each with its own Buffer, event and promise (~2 s
 * of CPU per GB with their GC, measured on `cat 1gb.log | redline diagnose --log -`). A non-blocking
 * stdin (EAGAIN) is read on through process.stdin from where this stopped.
 */
function stdinSource(): ByteSource {
  let stopped = false;
  async function* chunks(): AsyncGenerator<Buffer> {
    for (let k = 1; !stopped; k++) {
      const buf = Buffer.allocUnsafeSlow(STDIN_CHUNK_BYTES);
      let got = 0;
      while (got < buf.length) {
        let n: number;
        try {
          n = readSync(0, buf, got, buf.length - got, null);
        } catch (e) {
          const code = (e as NodeJS.ErrnoException).code;
          if (code === 'EOF') n = 0; // Windows, at the end of a pipe
          else if (code === 'EAGAIN') {
            if (got > 0) yield buf.subarray(0, got);
            for await (const c of process.stdin) yield Buffer.isBuffer(c) ? c : Buffer.from(c as string);
            return;
          } else throw e;
        }
        if (n === 0) {
          if (got > 0) yield buf.subarray(0, got);
          return;
        }
        got += n;
      }
      yield buf;
      if (k % STDIN_YIELD_EVERY === 0) await yieldNow();
    }
  }
  return {
    [Symbol.asyncIterator]: chunks,
    destroy() {
      stopped = true;
    },
  };
}

async function openStream(source: LogSource): Promise<Readable> {
  if (typeof source !== 'string') return source;
  if (source === '-') return process.stdin;
  try {
    const s = await stat(source);
    if (s.isDirectory()) throw new LogReadError(source, `--log ${source} is a directory: pass the log file itself`);
  } catch (e) {
    if (e instanceof LogReadError) throw e;
    throw new LogReadError(source, `cannot read --log ${source}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}; check the path`, {
      cause: e,
    });
  }
  return createReadStream(source, { highWaterMark: READ_CHUNK_BYTES });
}

function describe(source: LogSource): string {
  return typeof source === 'string' ? source : '<stream>';
}
