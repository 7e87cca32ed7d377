import { open } from 'node:fs/promises';
import { spawn } from 'node:child_process';
import type { LogLine } from '../types.js';
import { cleanLine } from './clean.js';
import { findMarkers, mayHoldMarker } from './markers.js';
import type { LogScan, SectionMarker } from './scan-log.js';
import { runRipgrep } from '../repo/ripgrep.js';
import { HEAD_LINES, HIT_CONTEXT_AFTER, HIT_CONTEXT_BEFORE, MAX_LOG_LINE_BYTES, MAX_MIDDLE_LINES, TAIL_BYTES, TAIL_LINES, BIG_FILE_RG_TIMEOUT_MS } from '../limits.js';

/**
 * Error-looking literals for the middle of a big log. ripgrep searches them all at once at memory speed
 * (its literal prefilter), so the list can be generous; the head and the tail are kept regardless.
 */
/** rg output kept for the middle: at ~120 bytes a line, several times MAX_MIDDLE_LINES. */
const MIDDLE_OUTPUT_BYTES = 16 * 1024 * 1024;
/** Bytes read around a hit for its context lines (5 lines before, 40 after, at typical log widths). */
const CONTEXT_WINDOW_BEFORE = 4 * 1024;
const CONTEXT_WINDOW_AFTER = 32 * 1024;

const NEEDLES = ['rror', 'RROR', 'FAIL', 'Fail', 'ailed', '##[', 'xception', 'Killed', 'fatal', 'FATAL', 'panic', 'Traceback', 'section_', 'travis_fold', 'not ok', '✕', '✖', 'Cannot find'];

/**
 * Scans a big plain log file on disk without reading it through JavaScript line by line: the head and
 * the tail are read directly, the middle's error-looking lines (with context) come from the bundled
 * ripgrep, and the total line count from `wc -l` (memchr speed) when the system has it. Memory is bounded
 * by the windows, not by the file.
 */
export async function scanBigFile(path: string, size: number): Promise<LogScan> {
  const sections: SectionMarker[] = [];
  const decode = (raw: string, n: number): LogLine => {
    const cut = raw.length > MAX_LOG_LINE_BYTES;
    const r = cut ? raw.slice(0, MAX_LOG_LINE_BYTES) : raw;
    if (mayHoldMarker(r)) sections.push(...findMarkers(r, n));
    return { n, text: cleanLine(r) + (cut ? ` … [line cut at ${MAX_LOG_LINE_BYTES} bytes]` : '') };
  };
  const [head, tail, total, middle] = await Promise.all([
    readHead(path),
    readTail(path, size),
    countLines(path, size),
    searchMiddle(path),
  ]);
  const headLines = head.slice(0, HEAD_LINES).map((raw, i) => decode(raw, i + 1));
  const tailRaw = tail.slice(-TAIL_LINES);
  const tailStart = total - tailRaw.length + 1;
  const headEnd = headLines.length;
  const mid = middle.filter((m) => m.n > headEnd && m.n < tailStart);
  const midKept = mid.slice(-MAX_MIDDLE_LINES);
  const lines = [...headLines, ...midKept.map((m) => decode(m.text, m.n)), ...tailRaw.map((raw, i) => decode(raw, tailStart + i))];
  return { bytes: size, totalLines: total, lines, sections: sections.sort((a, b) => a.n - b.n), complete: false, capped: false };
}

async function readHead(path: string): Promise<string[]> {
  const fh = await open(path, 'r');
  try {
    const buf = Buffer.allocUnsafe(Math.min(4 * 1024 * 1024, HEAD_LINES * 2048));
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
    const text = buf.toString('utf8', 0, bytesRead);
    const lines = text.split('\n');
    lines.pop(); // partial (or empty) last piece
    return lines;
  } finally {
    await fh.close();
  }
}

/** The last whole lines within TAIL_BYTES of the end (a last line without newline included). */
async function readTail(path: string, size: number): Promise<string[]> {
  const fh = await open(path, 'r');
  try {
    const len = Math.min(size, TAIL_BYTES);
    const buf = Buffer.allocUnsafe(len);
    const { bytesRead } = await fh.read(buf, 0, len, size - len);
    let start = 0;
    if (size > len) start = buf.indexOf(10) + 1; // drop the partial first line
    let end = bytesRead;
    if (end > start && buf[end - 1] === 10) end--;
    return buf.toString('utf8', start, end).split('\n');
  } finally {
    await fh.close();
  }
}

/** Lines in the file: `wc -l` (+1 for a last line without newline); a JavaScript count where wc is missing. */
async function countLines(path: string, size: number): Promise<number> {
  const lastByte = await (async () => {
    const fh = await open(path, 'r');
    try {
      const b = Buffer.alloc(1);
      await fh.read(b, 0, 1, size - 1);
      return b[0];
    } finally {
      await fh.close();
    }
  })();
  const extra = lastByte === 10 ? 0 : 1;
  const viaWc = await new Promise<number | null>((resolve) => {
    let out = '';
    // No shell, the path after `--`: nothing in a file name can act as a flag or a command.
    const p = spawn('wc', ['-l', '--', path], { stdio: ['ignore', 'pipe', 'ignore'] });
    p.on('error', () => resolve(null));
    p.stdout.on('data', (d: Buffer) => (out += d.toString()));
    p.on('close', (code) => resolve(code === 0 && /^\s*\d+/.test(out) ? Number(out.trim().split(/\s+/)[0]) : null));
  });
  if (viaWc !== null) return viaWc + extra;
  const fh = await open(path, 'r');
  let n = 0;
  try {
    for await (const chunk of fh.createReadStream({ highWaterMark: 4 * 1024 * 1024 })) {
      let p = 0;
      const b = chunk as Buffer;
      while ((p = b.indexOf(10, p)) !== -1) {
        n++;
        p++;
      }
    }
  } finally {
    await fh.close();
  }
  return n + extra;
}

/**
 * The middle's error-looking lines with their context. ripgrep reports only the hit lines with their
 * line numbers and byte offsets (its output stays small even when a log says "error" a million times);
 * the context around the newest hits is then read straight from the file at those offsets.
 */
async function searchMiddle(path: string): Promise<{ n: number; text: string }[]> {
  const args = ['--text', '--line-number', '--byte-offset', '--no-filename', '--color=never', '--fixed-strings', `--max-columns=${MAX_LOG_LINE_BYTES}`];
  for (const n of NEEDLES) args.push('-e', n);
  args.push('--', path);
  // Keep the last bytes of rg's output (its newest hits); split and decode only those at the end.
  const chunks: Buffer[] = [];
  let bytes = 0;
  await runRipgrep(args, {
    cwd: '/',
    timeoutMs: BIG_FILE_RG_TIMEOUT_MS,
    onChunk(chunk) {
      chunks.push(chunk);
      bytes += chunk.length;
      while (chunks.length > 1 && bytes - chunks[0]!.length >= MIDDLE_OUTPUT_BYTES) bytes -= chunks.shift()!.length;
    },
  });
  const records = Buffer.concat(chunks).toString('utf8').split('\n');
  if (bytes >= MIDDLE_OUTPUT_BYTES) records.shift(); // partial: the ring dropped its beginning
  const hits: { n: number; offset: number }[] = [];
  for (const rec of records) {
    const m = /^(\d+):(\d+):/.exec(rec);
    if (m) hits.push({ n: Number(m[1]), offset: Number(m[2]) });
  }
  const perHit = HIT_CONTEXT_BEFORE + HIT_CONTEXT_AFTER + 1;
  const newest = hits.slice(-Math.ceil(MAX_MIDDLE_LINES / perHit));
  const out = new Map<number, string>();
  const fh = await open(path, 'r');
  try {
    const buf = Buffer.allocUnsafe(CONTEXT_WINDOW_BEFORE + CONTEXT_WINDOW_AFTER);
    for (const h of newest) {
      if (out.has(h.n) && out.has(h.n + HIT_CONTEXT_AFTER)) continue; // inside the previous window
      const from = Math.max(0, h.offset - CONTEXT_WINDOW_BEFORE);
      const { bytesRead } = await fh.read(buf, 0, buf.length, from);
      const at = h.offset - from;
      // Walk back over the lines before the hit, then forward over the hit and the lines after it.
      let start = at;
      const starts: number[] = [at];
      for (let k = 0; k < HIT_CONTEXT_BEFORE; k++) {
        if (start <= 0) break;
        const prev = buf.lastIndexOf(10, start - 2);
        if (prev === -1 && from > 0) break; // the window does not reach that line's start
        start = prev + 1;
        starts.unshift(start);
      }
      for (let i = 0; i < starts.length - 1; i++) out.set(h.n - (starts.length - 1 - i), buf.toString('utf8', starts[i]!, starts[i + 1]! - 1));
      let pos = at;
      for (let k = 0; k <= HIT_CONTEXT_AFTER; k++) {
        const end = buf.indexOf(10, pos);
        if (end === -1 || end >= bytesRead) break;
        out.set(h.n + k, buf.toString('utf8', pos, end));
        pos = end + 1;
      }
    }
  } finally {
    await fh.close();
  }
  return [...out.entries()].sort((a, b) => a[0] - b[0]).map(([n, text]) => ({ n, text }));
}
