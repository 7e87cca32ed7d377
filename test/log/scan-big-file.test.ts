import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readLog } from '../../src/log/read-log.js';
import { cleanText } from '../../src/log/clean.js';
import { findFailingStep } from '../../src/log/find-failing-step.js';
import { FULL_KEEP_BYTES, TAIL_LINES } from '../../src/limits.js';

/**
 * The fast path for big log files on disk (head + tail reads, ripgrep's prefilter for the middle, wc
 * for the line count): a real Actions job log repeated past FULL_KEEP_BYTES, with a real failing step at
 * the end. Every kept line must carry its exact number and cleaned text.
 */
const dir = mkdtempSync(join(tmpdir(), 'redline-big-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const noise = readFileSync(new URL('../../fixtures/real-logs/gradle-2063953546-orig.log', import.meta.url), 'utf8');
const failure = readFileSync(new URL('../../fixtures/logs/tsc-signature-change-call-site/log.txt', import.meta.url), 'utf8');

function build(name: string, trailingNewline: boolean): { path: string; text: string } {
  const path = join(dir, name);
  const parts: string[] = [];
  let size = 0;
  // Drop the noise log's runner errors so the only failing step is the recorded tsc one at the end.
  const quiet = noise.split('\n').filter((l) => !l.includes('##[error]')).join('\n') + '\n';
  writeFileSync(path, '');
  while (size <= FULL_KEEP_BYTES + 2 * 1024 * 1024) {
    appendFileSync(path, quiet);
    parts.push(quiet);
    size += Buffer.byteLength(quiet);
  }
  const tail = trailingNewline ? failure : failure.replace(/\n$/, '');
  appendFileSync(path, tail);
  parts.push(tail);
  return { path, text: parts.join('') };
}

describe('readLog on a big file', () => {
  const cases = [build('big.log', true), build('big-no-newline.log', false)];
  for (const [i, c] of cases.entries()) {
    it(`keeps exact line numbers and text (${i === 0 ? 'trailing newline' : 'no trailing newline'})`, async () => {
      const scan = await readLog(c.path);
      const truth = cleanText(c.text);
      expect(scan.complete).toBe(false);
      expect(scan.totalLines).toBe(truth.length);
      expect(scan.bytes).toBe(Buffer.byteLength(c.text));
      for (const l of scan.lines) expect(l.text, `line ${l.n}`).toBe(truth[l.n - 1]!.text);
      // Head and tail windows are whole.
      expect(scan.lines[0]!.n).toBe(1);
      expect(scan.lines[scan.lines.length - 1]!.n).toBe(truth.length);
      const tail = scan.lines.slice(-TAIL_LINES);
      expect(tail[tail.length - 1]!.n - tail[0]!.n + 1).toBe(tail.length);
      // Numbers strictly increase: no duplicates between head, middle and tail.
      for (let k = 1; k < scan.lines.length; k++) expect(scan.lines[k]!.n).toBeGreaterThan(scan.lines[k - 1]!.n);
    }, 60_000);
  }

  it('keeps error lines from the middle with their context', async () => {
    const scan = await readLog(cases[0]!.path);
    const truth = cleanText(cases[0]!.text);
    const middle = scan.lines.filter((l) => l.n > 2000 && l.n < scan.lines[scan.lines.length - TAIL_LINES]!.n);
    expect(middle.length).toBeGreaterThan(0);
    const kept = new Map(scan.lines.map((l) => [l.n, l.text]));
    // The 5 lines before and the lines after a kept error are kept with it (markers alone may stand without).
    const withContext = middle.filter((l) => /FAILED|rror/.test(l.text) && [-5, -1, 1, 5].every((d) => kept.get(l.n + d) === truth[l.n + d - 1]!.text));
    expect(withContext.length).toBeGreaterThan(10);
    const note = scan.middle!;
    expect(note.hits).toBe(note.keptHits + note.droppedHits);
    expect(note.keptHits).toBeGreaterThan(0);
  }, 60_000);

  it('finds the real failing step at the end', async () => {
    const scan = await readLog(cases[0]!.path);
    const layout = findFailingStep(scan.lines, scan.sections, scan.totalLines);
    expect(layout.failing?.name).toBe('npx tsc --noEmit');
    expect(layout.failing!.startLine).toBeGreaterThan(scan.totalLines - 100);
  }, 60_000);
});
