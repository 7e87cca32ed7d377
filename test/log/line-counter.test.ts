import { afterAll, describe, expect, it, vi } from 'vitest';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The sampled middle's line numbers: block and index sizes scaled down so a real log's lines cross them. */
vi.mock('../../src/limits.js', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../src/limits.js')>()),
  LINE_COUNT_BLOCK_BYTES: 333,
  LINE_INDEX_BLOCK_BYTES: 1000,
}));
const { LineCounter } = await import('../../src/log/line-counter.js');

const dir = mkdtempSync(join(tmpdir(), 'redline-line-counter-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const text = readFileSync(new URL('../../fixtures/real-logs/javascript-mocha-2230809902.log', import.meta.url));
const path = join(dir, 'log.txt');
writeFileSync(path, text);
// Every line start and its number (1-based).
const starts = [0];
for (let p = text.indexOf(10); p !== -1 && p + 1 < text.length; p = text.indexOf(10, p + 1)) starts.push(p + 1);

describe('LineCounter', () => {
  for (const indexed of [false, true]) {
    it(`numbers line starts exactly from a line in the middle (${indexed ? 'indexed ahead' : 'walking forward'})`, async () => {
      const fd = openSync(path, 'r');
      try {
        const first = Math.floor(starts.length / 5);
        const c = new LineCounter(fd, starts[first]!, first + 1);
        if (indexed) await c.index(text.length);
        // Forward in uneven steps, then (indexed only) back and forth.
        const asked = starts.map((at, i) => ({ at, n: i + 1 })).filter((x, i) => i >= first && i % 7 === 0);
        for (const x of asked) expect(c.lineAt(x.at), `offset ${x.at}`).toBe(x.n);
        if (indexed) for (const x of [...asked].reverse().filter((_, i) => i % 3 === 0)) expect(c.lineAt(x.at), `offset ${x.at}`).toBe(x.n);
      } finally {
        closeSync(fd);
      }
    });
  }
});
