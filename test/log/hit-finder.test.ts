import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { FILE_NEEDLE_BUFFERS, findHits, STREAM_NEEDLE_BUFFERS } from '../../src/log/hit-finder.js';

/**
 * findHits against its definition, read line by line: the starts of the lines of buf[from, to) in which
 * a needle lies wholly inside [from, to), the first one's line starting where it starts (even before
 * `from`), at most `max`, stopping at a hit line with no newline after it. Real logs: a dense one (maven,
 * a needle on many lines, several needles per line) and a sparse one (mocha).
 */
const LOGS = ['maven-2003301608-orig.log', 'javascript-mocha-2230809902.log'].map((f) => readFileSync(new URL(`../../fixtures/real-logs/${f}`, import.meta.url)));

function byLine(buf: Buffer, from: number, to: number, max: number, needles: readonly Buffer[]): number[] {
  const out: number[] = [];
  const s = buf.subarray(from, to);
  let lineStart = from === 0 ? 0 : buf.lastIndexOf(10, from - 1) + 1;
  while (lineStart < to && out.length < max) {
    const nl = buf.indexOf(10, lineStart);
    const lineEnd = nl === -1 ? buf.length : nl;
    const a = Math.max(0, lineStart - from);
    const b = Math.min(s.length, lineEnd - from);
    if (needles.some((nd) => s.subarray(a, b).indexOf(nd) !== -1)) {
      out.push(lineStart);
      if (nl === -1) break;
    }
    if (nl === -1) break;
    lineStart = nl + 1;
  }
  return out;
}

describe('findHits', () => {
  it('names the lines holding a needle, as a line-by-line search does, on whole logs and on windows cut mid-line', () => {
    let seed = 7;
    const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff), seed % n);
    let hits = 0;
    for (const buf of LOGS) {
      for (const needles of [FILE_NEEDLE_BUFFERS, STREAM_NEEDLE_BUFFERS]) {
        expect(findHits(buf, 0, buf.length, Infinity, needles)).toEqual(byLine(buf, 0, buf.length, Infinity, needles));
        for (let r = 0; r < 80; r++) {
          const from = rnd(buf.length);
          const to = Math.min(buf.length, from + 1 + rnd(48 * 1024));
          const max = r % 4 === 0 ? 1 + rnd(20) : Infinity;
          const got = findHits(buf, from, to, max, needles);
          expect(got).toEqual(byLine(buf, from, to, max, needles));
          hits += got.length;
        }
      }
    }
    expect(hits).toBeGreaterThan(300);
  });
});
