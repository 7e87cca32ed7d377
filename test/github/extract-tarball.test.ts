import { existsSync, lstatSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { createGzip, gzipSync } from 'node:zlib';
import { Header } from 'tar';
import { afterEach, describe, expect, it } from 'vitest';
import { TooLargeError } from '../../src/github/errors.js';
import { extractTarball, unsafePath } from '../../src/github/extract-tarball.js';
import { makeTarball } from '../helpers/fake-github/tarball.js';

const dirs: string[] = [];
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'redline-tar-'));
  dirs.push(d);
  return d;
}
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

/** One raw tar header block (for entry types the helper does not write: devices, FIFOs). */
function rawHeader(path: string, type: 'CharacterDevice' | 'BlockDevice' | 'FIFO' | 'File', size = 0): Buffer {
  const h = new Header({ path, type, mode: 0o644, size, mtime: new Date(0), uid: 0, gid: 0 });
  h.encode();
  return h.block!;
}

describe('extractTarball', () => {
  it('extracts a GitHub-shaped tarball without its top folder', async () => {
    const dest = join(tempDir(), 'out');
    const tgz = makeTarball({ 'src/a.ts': 'export const a = 1;\n', 'README.md': '# hi\n' }, 'octo-repo-abc1234', { sha: 'a'.repeat(40) });
    const report = await extractTarball(Readable.from([tgz]), dest);
    expect(readFileSync(join(dest, 'src/a.ts'), 'utf8')).toBe('export const a = 1;\n');
    expect(readFileSync(join(dest, 'README.md'), 'utf8')).toBe('# hi\n');
    expect(report).toMatchObject({ files: 2, skipped: [] });
  });

  it('writes nothing for `..`, absolute paths, symlinks and hardlinks (skips them, extracts the rest)', async () => {
    const root = tempDir();
    const dest = join(root, 'out');
    const tgz = makeTarball(
      {
        '../../escaped.txt': 'pwned',
        'ok.txt': 'fine',
        'passwd-link': { symlink: '/etc/passwd' },
        'up-link': { symlink: '../../..' },
        'hard': { hardlink: '/etc/passwd' },
      },
      'top',
    );
    const absolute = makeTarball({ 'tmp/redline-absolute.txt': 'pwned' }, ''); // entries named /tmp/...
    const report = await extractTarball(Readable.from([tgz]), dest);
    const absReport = await extractTarball(Readable.from([absolute]), join(root, 'out2'));
    expect(readdirSync(dest).sort()).toEqual(['ok.txt']);
    expect(existsSync(join(root, 'escaped.txt'))).toBe(false);
    expect(existsSync('/tmp/redline-absolute.txt')).toBe(false);
    // The helper also writes the folders on the way (`top/../`): those are refused the same way.
    expect(new Set(report.skipped.map((s) => s.why))).toEqual(new Set(['Link entries are not extracted', 'SymbolicLink entries are not extracted', 'climbs out with ..']));
    expect(report.skipped.filter((s) => s.why.startsWith('SymbolicLink')).map((s) => s.path).sort()).toEqual(['top/passwd-link', 'top/up-link']);
    expect(absReport.skipped.map((s) => s.why)).toContain('absolute path');
    expect(absReport.files).toBe(0);
  });

  it('skips device files and FIFOs', async () => {
    const dest = join(tempDir(), 'out');
    const body = Buffer.from('x');
    const tar = Buffer.concat([
      rawHeader('top/', 'File'),
      rawHeader('top/null', 'CharacterDevice'),
      rawHeader('top/disk', 'BlockDevice'),
      rawHeader('top/pipe', 'FIFO'),
      rawHeader('top/f.txt', 'File', 1), body, Buffer.alloc(511),
      Buffer.alloc(1024),
    ]);
    const report = await extractTarball(Readable.from([gzipSync(tar)]), dest);
    expect(readdirSync(dest)).toEqual(['f.txt']);
    expect(lstatSync(join(dest, 'f.txt')).isFile()).toBe(true);
    expect(report.skipped.map((s) => s.path).sort()).toEqual(['top/disk', 'top/null', 'top/pipe']);
  });

  it('stops a gzip bomb at the extracted-bytes cap', async () => {
    const dest = join(tempDir(), 'out');
    const size = 64 * 1024 * 1024; // 64 MB of zeros gzips to ~64 KB
    async function* tarOfZeros(): AsyncGenerator<Buffer> {
      yield rawHeader('top/zeros', 'File', size);
      const chunk = Buffer.alloc(1024 * 1024);
      for (let i = 0; i < size / chunk.length; i++) yield chunk;
      yield Buffer.alloc(1024);
    }
    const gz = Readable.from(tarOfZeros()).pipe(createGzip());
    const err = await extractTarball(gz, dest, { maxExtractedBytes: 8 * 1024 * 1024 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TooLargeError);
    expect((err as Error).message).toMatch(/unpacked repository tarball is larger than 8,388,608 bytes/);
  });

  it('stops a download past the compressed cap, and an archive past the entry cap', async () => {
    const tgz = makeTarball(Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`f${i}.txt`, `file ${i} `.repeat(200)])), 'top');
    await expect(extractTarball(Readable.from([tgz]), join(tempDir(), 'a'), { maxCompressedBytes: 100 })).rejects.toThrow(/repository tarball is larger than 100 bytes/);
    await expect(extractTarball(Readable.from([tgz]), join(tempDir(), 'b'), { maxEntries: 10 })).rejects.toThrow(TooLargeError);
  });

  it('names what is unsafe in a path', () => {
    expect(unsafePath('a/b.ts')).toBeUndefined();
    expect(unsafePath('/etc/passwd')).toBe('absolute path');
    expect(unsafePath('C:/x')).toBe('absolute path');
    expect(unsafePath('a/../../b')).toBe('climbs out with ..');
    expect(unsafePath('a\\..\\b')).toBe('climbs out with ..');
  });
});
