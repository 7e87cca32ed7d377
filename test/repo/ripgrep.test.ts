import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countFilesContaining, runRipgrep } from '../../src/repo/ripgrep.js';

let root: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'redline-rg-'));
  mkdirSync(join(root, 'src'));
  writeFileSync(join(root, 'src', 'a.ts'), 'const common = rareIdent;\nconst common2 = 1;\n');
  writeFileSync(join(root, 'src', 'b.ts'), 'const common = 2;\n');
  writeFileSync(join(root, 'src', 'c.ts'), 'common\n-dash\n');
  writeFileSync(join(root, 'many.txt'), Array.from({ length: 5000 }, (_, i) => `line ${i} hit`).join('\n'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('runRipgrep', () => {
  it('returns matches, and exit 1 without throwing when nothing matches', async () => {
    const hit = await runRipgrep(['-l', '--', 'rareIdent', '.'], { cwd: root });
    expect(hit.code).toBe(0);
    expect(hit.stdout.trim()).toBe('./src/a.ts');
    const none = await runRipgrep(['-l', '--', 'nothing-here-xyz', '.'], { cwd: root });
    expect(none).toMatchObject({ code: 1, stdout: '', truncated: false, timedOut: false });
  });

  it('reports rg errors as code 2 with stderr', async () => {
    const bad = await runRipgrep(['--', '(unclosed', '.'], { cwd: root });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/regex/i);
  });

  it('ignores RIPGREP_CONFIG_PATH', async () => {
    const cfg = join(root, 'rgrc');
    writeFileSync(cfg, '--files\n');
    process.env.RIPGREP_CONFIG_PATH = cfg;
    try {
      const res = await runRipgrep(['-l', '--', 'rareIdent', '.'], { cwd: root });
      expect(res.stdout.trim()).toBe('./src/a.ts');
    } finally {
      delete process.env.RIPGREP_CONFIG_PATH;
    }
  });

  it('cuts at maxOutputBytes on a whole line and at maxRecords', async () => {
    const bytes = await runRipgrep(['--no-filename', '--', 'hit', 'many.txt'], { cwd: root, maxOutputBytes: 1000 });
    expect(bytes.truncated).toBe(true);
    expect(bytes.stdout.length).toBeLessThanOrEqual(1000);
    expect(bytes.stdout.endsWith('\n')).toBe(true);
    const recs = await runRipgrep(['--no-filename', '--', 'hit', 'many.txt'], { cwd: root, maxRecords: 10 });
    expect(recs.truncated).toBe(true);
    expect(recs.stdout.split('\n').filter(Boolean)).toHaveLength(10);
  });

  it('streams records and stops on request', async () => {
    const seen: string[] = [];
    const res = await runRipgrep(['--no-filename', '--', 'hit', 'many.txt'], {
      cwd: root,
      onRecord: (r) => (seen.push(r), seen.length >= 3 ? 'stop' : undefined),
    });
    expect(res.truncated).toBe(true);
    expect(seen).toHaveLength(3);
    expect(seen[0]).toMatch(/^line \d+ hit$/);
  });

  it('skips and counts records longer than maxRecordBytes in streaming mode', async () => {
    writeFileSync(join(root, 'wide.txt'), `short hit\n${'w'.repeat(10_000)} hit\nend hit\n`);
    const seen: string[] = [];
    const res = await runRipgrep(['--no-filename', '--', 'hit', 'wide.txt'], {
      cwd: root,
      maxRecordBytes: 1000,
      onRecord: (r) => void seen.push(r),
    });
    expect(seen).toEqual(['short hit', 'end hit']);
    expect(res.droppedRecords).toBe(1);
    expect(res.stdout).toBe('');
  });

  it('kills on timeout', async () => {
    const res = await runRipgrep(['--no-filename', '--', 'hit', 'many.txt'], { cwd: root, timeoutMs: 1 });
    // Either it finished within a millisecond or it was killed; never hangs or throws.
    expect(res.timedOut || res.code === 0).toBe(true);
  });

  it('rejects when rg cannot be started in a missing folder', async () => {
    await expect(runRipgrep(['--files'], { cwd: join(root, 'nope') })).rejects.toThrow(/ripgrep/);
  });
});

describe('countFilesContaining', () => {
  it('counts files per word as fixed strings', async () => {
    const m = await countFilesContaining(root, ['common', 'rareIdent', 'absentWord', '-dash', 'a.b(', 'common', '']);
    expect(m.get('common')).toBe(3);
    expect(m.get('rareIdent')).toBe(1);
    expect(m.get('absentWord')).toBe(0);
    expect(m.get('-dash')).toBe(1);
    expect(m.get('a.b(')).toBe(0);
    expect(m.has('')).toBe(false);
  });

  it('counts at most 40 words', async () => {
    const words = Array.from({ length: 60 }, (_, i) => `w${i}x`);
    const m = await countFilesContaining(root, words);
    expect(m.size).toBe(40);
    expect(m.has('w39x')).toBe(true);
    expect(m.has('w40x')).toBe(false);
  });
});
