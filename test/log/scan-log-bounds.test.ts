import { describe, expect, it, vi } from 'vitest';
import { readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';

/**
 * The same huge-mode and capping code paths as scan-log-huge.test.ts, with the bounds scaled down so that
 * every window spans many chunk borders and the byte cap is reachable: a real log, a few hundred KB.
 */
vi.mock('../../src/limits.js', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../src/limits.js')>()),
  FULL_KEEP_BYTES: 64 * 1024,
  HEAD_LINES: 20,
  TAIL_BYTES: 24 * 1024,
  TAIL_LINES: 100_000,
  MAX_MIDDLE_LINES: 60,
  MAX_LOG_BYTES: 150 * 1024,
}));

const { scanLog } = await import('../../src/log/scan-log.js');
const { openLog } = await import('../../src/log/open-log.js');
const { cleanText } = await import('../../src/log/clean.js');
const L = await import('../../src/limits.js');

const base = readFileSync(new URL('../../fixtures/real-logs/javascript-jest-2544418976.log', import.meta.url), 'utf8').replace(/\n?$/, '\n');

async function scanIn(buf: Buffer, size: number) {
  async function* chunks() {
    for (let i = 0; i < buf.length; i += size) yield buf.subarray(i, i + size);
  }
  return scanLog(chunks());
}

describe('scanLog huge mode with small bounds (many chunk borders)', () => {
  const buf = Buffer.from(base.slice(0, 130 * 1024).replace(/[^\n]*$/, ''));
  const want = cleanText(buf.toString('utf8'));

  for (const size of [997, 3001, 8192]) {
    it(`chunks of ${size} bytes: kept lines exact, tail contiguous over chunk borders`, async () => {
      const scan = await scanIn(buf, size);
      expect(L.FULL_KEEP_BYTES).toBe(64 * 1024);
      expect(scan.complete).toBe(false);
      expect(scan.totalLines).toBe(want.length);
      let prev = 0;
      for (const l of scan.lines) {
        expect(l.n).toBeGreaterThan(prev);
        prev = l.n;
        expect(l).toEqual(want[l.n - 1]);
      }
      // Every line in the last TAIL_BYTES of the file is kept, with no gap at a chunk border.
      let lines = 0;
      for (let i = buf.length - 1, seen = 0; i >= 0 && seen < L.TAIL_BYTES; i--, seen++) if (buf[i] === 10) lines++;
      expect(scan.lines.slice(-lines)).toEqual(want.slice(-lines));
      expect(scan.lines.slice(0, L.HEAD_LINES)).toEqual(want.slice(0, L.HEAD_LINES));
    });
  }

  it('the middle stays bounded: the oldest middle lines go first', async () => {
    const scan = await scanIn(buf, 3001);
    const head = scan.lines.filter((l) => l.n <= L.HEAD_LINES).length;
    expect(head).toBe(L.HEAD_LINES);
    const tailLines = (() => {
      let n = 0;
      for (let i = buf.length - 1, seen = 0; i >= 0 && seen < L.TAIL_BYTES + 8192; i--, seen++) if (buf[i] === 10) n++;
      return n;
    })();
    expect(scan.lines.length).toBeLessThanOrEqual(L.HEAD_LINES + L.MAX_MIDDLE_LINES * 1.5 + tailLines);
  });
});

describe('MAX_LOG_BYTES: an endless or bomb-like input stops at the cap and says so', () => {
  const big = Buffer.from(base.repeat(2));

  it('plain stream', async () => {
    const state = { capped: false };
    const scan = await scanLog(openLog(Readable.from([big.subarray(0, 100_000), big.subarray(100_000)]), state), state);
    expect(scan.capped).toBe(true);
    expect(scan.bytes).toBe(L.MAX_LOG_BYTES);
  });

  it('gzip stream (decompressed bytes count)', async () => {
    const state = { capped: false };
    const scan = await scanLog(openLog(Readable.from([gzipSync(big)]), state), state);
    expect(scan.capped).toBe(true);
    expect(scan.bytes).toBe(L.MAX_LOG_BYTES);
    expect(scan.lines[0]).toEqual(cleanText(base)[0]);
  });
});
