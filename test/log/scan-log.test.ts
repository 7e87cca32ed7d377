import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { scanLog, type LogScan } from '../../src/log/scan-log.js';
import { cleanText } from '../../src/log/clean.js';
import { MAX_LOG_LINE_BYTES } from '../../src/limits.js';

/**
 * scanLog in whole mode (logs up to FULL_KEEP_BYTES): every line kept, numbered exactly as the file
 * numbers them, whatever the bytes. Inputs are real logs, transformed byte-wise here.
 */
const REAL = new URL('../../fixtures/real-logs/', import.meta.url);
const LOGS = new URL('../../fixtures/logs/', import.meta.url);
const real = (name: string) => readFileSync(new URL(name, REAL));

/** Feeds a buffer to scanLog in chunks of `size` bytes (chunk borders fall mid-line, mid-character). */
export async function scanBytes(buf: Buffer, size = 65_536): Promise<LogScan> {
  async function* chunks() {
    for (let i = 0; i < buf.length; i += size) yield buf.subarray(i, i + size);
  }
  return scanLog(chunks());
}

function expectSameAsCleanText(scan: LogScan, buf: Buffer): void {
  const expected = cleanText(buf.toString('utf8'));
  expect(scan.totalLines).toBe(expected.length);
  expect(scan.lines.length).toBe(expected.length);
  expect(scan.lines).toEqual(expected);
  expect(scan.complete).toBe(true);
  expect(scan.capped).toBe(false);
  expect(scan.bytes).toBe(buf.length);
}

describe('scanLog whole mode: real logs as recorded', () => {
  const names = ['python-2468864400-orig.log', 'javascript-jest-2544418976.log', 'gradle-7801445827-orig.log', 'python-25839918303-orig.log', 'other-8859027590.log'];
  for (const name of names) {
    it(`${name}: every line, numbered like the file`, async () => {
      const buf = real(name);
      expectSameAsCleanText(await scanBytes(buf), buf);
    });
  }

  it('recorded tool logs (ANSI-coloured cargo / go / eslint output) agree with cleanText', async () => {
    for (const c of ['cargo-clippy-lint', 'go-build-type-error', 'eslint-eqeqeq-unix-format', 'tsc-pretty-missing-argument']) {
      const buf = readFileSync(new URL(`${c}/log.txt`, LOGS));
      expectSameAsCleanText(await scanBytes(buf, 1000), buf);
    }
  });

  it('chunk size does not change anything, down to one byte', async () => {
    const buf = real('other-8859027590.log');
    const ref = await scanBytes(buf);
    for (const size of [1, 2, 3, 7, 64]) expect(await scanBytes(buf, size)).toEqual(ref);
  });

  it('an empty log has no lines', async () => {
    expect(await scanBytes(Buffer.alloc(0))).toMatchObject({ bytes: 0, totalLines: 0, lines: [], complete: true });
  });
});

describe('scanLog whole mode: hostile bytes derived from a real log', () => {
  const base = real('python-2468864400-orig.log');
  const baseScan = () => scanBytes(base);

  it('CRLF line endings: same lines, same numbers', async () => {
    const crlf = Buffer.from(base.toString('utf8').replace(/\n/g, '\r\n'));
    const scan = await scanBytes(crlf, 4093);
    expect(scan.lines).toEqual((await baseScan()).lines);
  });

  it('no trailing newline vs one trailing newline: the last line counts once', async () => {
    const text = base.toString('utf8').replace(/\n$/, '');
    const a = await scanBytes(Buffer.from(text));
    const b = await scanBytes(Buffer.from(text + '\n'));
    expect(a.lines).toEqual(b.lines);
    expect(a.totalLines).toBe(text.split('\n').length);
  });

  it('NUL bytes and other C0 controls: removed from text, numbering unchanged', async () => {
    const dirty = Buffer.from(base);
    let injected = 0;
    for (let i = 17; i < dirty.length; i += 331) {
      if (dirty[i] === 0x0a) continue;
      dirty[i] = [0x00, 0x01, 0x07, 0x08, 0x1b, 0x7f][injected++ % 6]!;
    }
    const scan = await scanBytes(dirty);
    expect(scan.totalLines).toBe((await baseScan()).totalLines);
    for (const l of scan.lines) expect(l.text).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f]/);
    expect(scan.lines).toEqual(cleanText(dirty.toString('utf8')));
  });

  it('invalid UTF-8 (stray continuation, 0xff, truncated sequences, split across chunks): U+FFFD, numbering unchanged', async () => {
    const lines = base.toString('utf8').split('\n');
    const bad = Buffer.concat(
      lines.map((l, i) => {
        const b = Buffer.from(l + (i < lines.length - 1 ? '\n' : ''));
        if (i % 7 === 0) return Buffer.concat([Buffer.from([0x80, 0xff]), b]);
        if (i % 7 === 3) return Buffer.concat([b.subarray(0, b.length - 1), Buffer.from([0xe2, 0x82]), b.subarray(b.length - 1)]);
        if (i % 7 === 5) return Buffer.concat([Buffer.from([0xf0, 0x9f, 0x98, 0x80]), b]); // a real 4-byte character
        return b;
      }),
    );
    for (const size of [65_536, 4093, 3]) {
      const scan = await scanBytes(bad, size);
      expect(scan.totalLines).toBe((await baseScan()).totalLines);
      expect(scan.lines).toEqual(cleanText(bad.toString('utf8')));
    }
    const scan = await scanBytes(bad, 3);
    expect(scan.lines[0]!.text.startsWith('\uFFFD\uFFFD')).toBe(true);
    expect(scan.lines[5]!.text.startsWith('\u{1F600}')).toBe(true);
  });

  it('\\r progress frames: one line per frame group, the last frame shown', async () => {
    const text = base.toString('utf8');
    const lines = text.split('\n');
    // Redraw every 10th line as three frames of the lines around it (as a progress bar would).
    const redrawn = lines.map((l, i) => (i % 10 === 5 && i > 2 ? [lines[i - 2], lines[i - 1], l].join('\r') : l)).join('\n');
    const scan = await scanBytes(Buffer.from(redrawn), 5000);
    const ref = await baseScan();
    expect(scan.totalLines).toBe(ref.totalLines);
    for (let i = 0; i < ref.lines.length; i++) {
      if (i % 10 === 5 && i > 2 && ref.lines[i]!.text !== '') expect(scan.lines[i]!.text).toBe(ref.lines[i]!.text);
      else if (i % 10 !== 5) expect(scan.lines[i]).toEqual(ref.lines[i]);
    }
  });

  it('a 100 KB single line is cut with a note; the lines after it keep their numbers', async () => {
    const lines = base.toString('utf8').split('\n');
    const longLine = lines.slice(100, 2000).join(' ').slice(0, 100 * 1024);
    expect(Buffer.byteLength(longLine)).toBeGreaterThan(MAX_LOG_LINE_BYTES * 2);
    const withLong = [...lines.slice(0, 50), longLine, ...lines.slice(50)].join('\n');
    const scan = await scanBytes(Buffer.from(withLong), 7000);
    const ref = await baseScan();
    expect(scan.totalLines).toBe(ref.totalLines + 1);
    const cut = scan.lines[50]!;
    expect(cut.n).toBe(51);
    expect(cut.text).toMatch(new RegExp(`… \\[line cut at ${MAX_LOG_LINE_BYTES} bytes\\]$`));
    expect(cut.text.length).toBeLessThanOrEqual(MAX_LOG_LINE_BYTES + 40);
    for (const l of ref.lines) {
      if (l.n <= 50) expect(scan.lines[l.n - 1]).toEqual(l);
      else expect(scan.lines[l.n]).toEqual({ n: l.n + 1, text: l.text });
    }
  });
});
