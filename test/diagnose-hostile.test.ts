import { pseudoRandomBytes } from '../fixtures/hostile/generate.js';
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { diagnose } from '../src/diagnose.js';

/** Bad input gets a clean "no location" (or a real diagnosis), never a crash or garbage evidence. */
const dir = mkdtempSync(join(tmpdir(), 'redline-hostile-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('diagnose on hostile input', () => {
  it('says a binary file is not a log, quotes nothing, pins nothing', async () => {
    const p = join(dir, 'binary.log');
    writeFileSync(p, pseudoRandomBytes(2_000_000, 42));
    const d = await diagnose({ log: p });
    expect(d.status).toBe('no-location');
    expect(d.evidence).toEqual([]);
    expect(d.summary).toMatch(/does not decode as text/);
  });

  it('still reads a real log with NUL bytes and invalid UTF-8 spliced in', async () => {
    const real = readFileSync(new URL('../fixtures/logs/tsc-return-type-mismatch/log.txt', import.meta.url));
    const p = join(dir, 'dirty.log');
    writeFileSync(p, Buffer.concat([Buffer.from([0, 0, 0xff, 0xfe, 10]), real, Buffer.from([0xc3, 10, 0, 10])]));
    const d = await diagnose({ log: p });
    expect(d.category).toBe('compile');
    expect(d.findings[0]?.file).toBe('src/duration.ts');
    expect(d.findings[0]?.line).toBe(28);
    // Line numbers count the spliced-in first line.
    expect(d.evidence[0]!.line).toBeGreaterThan(1);
  });

  it('handles an empty log', async () => {
    const p = join(dir, 'empty.log');
    writeFileSync(p, '');
    const d = await diagnose({ log: p });
    expect(d.status).toBe('no-location');
    expect(d.stats.lines).toBe(0);
  });

  it('handles a single 5 MB line without a newline', async () => {
    const p = join(dir, 'one-line.log');
    writeFileSync(p, 'x'.repeat(5 * 1024 * 1024));
    const d = await diagnose({ log: p });
    expect(d.status).toBe('no-location');
    expect(d.stats.lines).toBe(1);
    for (const e of d.evidence) expect(e.text.length).toBeLessThan(20_000);
  });
});
