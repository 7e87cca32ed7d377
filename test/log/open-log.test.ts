import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { openLog } from '../../src/log/open-log.js';
import { scanLog } from '../../src/log/scan-log.js';
import { cleanText } from '../../src/log/clean.js';
import { LogReadError } from '../../src/errors.js';

/** openLog on real logs: plain files, gzip (by magic bytes, not by name), streams, and bad paths. */
const REAL = new URL('../../fixtures/real-logs/', import.meta.url);
const logPath = new URL('javascript-jest-2544418976.log', REAL).pathname;
const bytes = readFileSync(logPath);

async function collect(it: AsyncIterable<Buffer>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const b of it) parts.push(b);
  return Buffer.concat(parts);
}

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'redline-open-log-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('openLog: files', () => {
  it('streams a plain file byte for byte', async () => {
    const state = { capped: false };
    expect((await collect(openLog(logPath, state))).equals(bytes)).toBe(true);
    expect(state.capped).toBe(false);
  });

  it('gunzips by magic bytes, whatever the file is called', async () => {
    const p = join(dir, 'job-log.txt'); // no .gz: detection is by content
    writeFileSync(p, gzipSync(bytes));
    expect((await collect(openLog(p))).equals(bytes)).toBe(true);
  });

  it('does not gunzip a file merely named .gz', async () => {
    const p = join(dir, 'plain.log.gz');
    writeFileSync(p, bytes);
    expect((await collect(openLog(p))).equals(bytes)).toBe(true);
  });

  it('reads an empty file as no bytes', async () => {
    const p = join(dir, 'empty.log');
    writeFileSync(p, '');
    expect((await collect(openLog(p))).length).toBe(0);
    const scan = await scanLog(openLog(p));
    expect(scan).toMatchObject({ bytes: 0, totalLines: 0, lines: [], complete: true, capped: false });
  });

  it('says which path is missing and how to fix it', async () => {
    const p = join(dir, 'no-such-log.txt');
    const err = await collect(openLog(p)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LogReadError);
    expect((err as LogReadError).source).toBe(p);
    expect((err as Error).message).toContain(p);
    expect((err as Error).message).toContain('ENOENT');
    expect((err as Error).message).toMatch(/check the path/);
    expect((err as Error).cause).toBeDefined();
  });

  it('refuses a directory with a message that says to pass the file', async () => {
    const err = await collect(openLog(dir)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LogReadError);
    expect((err as Error).message).toMatch(/is a directory: pass the log file itself/);
    expect((err as LogReadError).source).toBe(dir);
  });
});

describe('openLog: streams (the App reads HTTP bodies, the CLI reads stdin)', () => {
  it('passes a plain Readable through', async () => {
    expect((await collect(openLog(Readable.from([bytes])))).equals(bytes)).toBe(true);
  });

  it('gunzips a gzip Readable', async () => {
    expect((await collect(openLog(Readable.from([gzipSync(bytes)])))).equals(bytes)).toBe(true);
  });

  it('gunzips a gzip stream that arrives in tiny chunks (the magic split across chunks)', async () => {
    const gz = gzipSync(bytes);
    const chunks: Buffer[] = [];
    for (let i = 0; i < gz.length; i += i < 4 ? 1 : 977) chunks.push(gz.subarray(i, i < 4 ? i + 1 : i + 977));
    expect((await collect(openLog(Readable.from(chunks)))).equals(bytes)).toBe(true);
  });

  it('accepts string chunks (a Readable with an encoding set)', async () => {
    const text = bytes.toString('utf8');
    const r = Readable.from([text.slice(0, 1000), text.slice(1000)], { objectMode: true });
    expect((await collect(openLog(r))).toString('utf8')).toBe(text);
  });

  it('reads `-` as stdin', async () => {
    const stdin = Object.getOwnPropertyDescriptor(process, 'stdin')!;
    Object.defineProperty(process, 'stdin', { value: Readable.from([bytes]), configurable: true });
    try {
      expect((await collect(openLog('-'))).equals(bytes)).toBe(true);
    } finally {
      Object.defineProperty(process, 'stdin', stdin);
    }
  });

  it('reads an empty stream as no bytes', async () => {
    expect((await collect(openLog(Readable.from([])))).length).toBe(0);
  });
});

describe('openLog: damaged gzip', () => {
  const gz = gzipSync(bytes);

  it('a gzip truncated mid-stream gives what it could and says so (capped)', async () => {
    const state = { capped: false };
    const out = await collect(openLog(Readable.from([gz.subarray(0, Math.floor(gz.length / 2))]), state));
    expect(state.capped).toBe(true);
    expect(out.length).toBeGreaterThan(0);
    expect(out.length).toBeLessThan(bytes.length);
    // What came out is a true prefix of the log.
    expect(out.equals(bytes.subarray(0, out.length))).toBe(true);
  });

  it('a truncated gzip still scans to exact line numbers for what was read', async () => {
    const state = { capped: false };
    const scan = await scanLog(openLog(Readable.from([gz.subarray(0, Math.floor(gz.length * 0.7))]), state), state);
    expect(scan.capped).toBe(true);
    const full = cleanText(bytes.toString('utf8'));
    expect(scan.totalLines).toBeGreaterThan(100);
    // Every line but possibly the last (cut mid-line) matches the full log at the same number.
    for (const l of scan.lines.slice(0, -1)) expect(l).toEqual(full[l.n - 1]);
  });

  it('a gzip with a corrupted body ends early without throwing, or throws a LogReadError', async () => {
    const bad = Buffer.from(gz);
    for (let i = 200; i < bad.length - 8; i += 97) bad[i] = bad[i]! ^ 0xff;
    const state = { capped: false };
    try {
      await collect(openLog(Readable.from([bad]), state));
      expect(state.capped).toBe(true);
    } catch (e) {
      expect(e).toBeInstanceOf(LogReadError);
      expect((e as Error).message).toMatch(/could not decompress/);
    }
  });

  it('a gzip header alone gives nothing, capped', async () => {
    const state = { capped: false };
    const out = await collect(openLog(Readable.from([gz.subarray(0, 10)]), state));
    expect(out.length).toBe(0);
    expect(state.capped).toBe(true);
  });

  it('a source stream that fails surfaces as an error, not a silent success', async () => {
    const failing = new Readable({
      read() {
        this.push(bytes.subarray(0, 4096));
        this.destroy(new Error('connection reset by peer'));
      },
    });
    await expect(collect(openLog(failing))).rejects.toThrow(/connection reset/);
  });
});
