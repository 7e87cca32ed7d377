import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listRepoFiles } from '../../src/repo/list-files.js';

let root: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'redline-list-'));
  for (const d of ['src/deep', 'node_modules/pkg', '.git/objects', '.github/workflows']) mkdirSync(join(root, d), { recursive: true });
  writeFileSync(join(root, '.gitignore'), 'node_modules/\n*.log\n');
  writeFileSync(join(root, 'src/b.ts'), '');
  writeFileSync(join(root, 'src/deep/a.ts'), '');
  writeFileSync(join(root, 'README.md'), '');
  writeFileSync(join(root, 'debug.log'), '');
  writeFileSync(join(root, 'node_modules/pkg/index.js'), '');
  writeFileSync(join(root, '.git/HEAD'), '');
  writeFileSync(join(root, '.git/objects/x'), '');
  writeFileSync(join(root, '.github/workflows/ci.yml'), '');
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('listRepoFiles', () => {
  it('lists relative sorted paths, with hidden files, without .git and ignored files (no git repo needed)', async () => {
    const { files, truncated } = await listRepoFiles(root);
    expect(truncated).toBe(false);
    expect(files).toEqual(['.github/workflows/ci.yml', '.gitignore', 'README.md', 'src/b.ts', 'src/deep/a.ts']);
  });

  it('lists 50,000 files, none cut (its speed is printed here and measured by the bench)', async () => {
    const big = mkdtempSync(join(tmpdir(), 'redline-big-'));
    try {
      for (let d = 0; d < 100; d++) {
        const dir = join(big, `pkg${d}`, 'src');
        mkdirSync(dir, { recursive: true });
        for (let f = 0; f < 500; f++) writeFileSync(join(dir, `file${f}.ts`), '');
      }
      const t0 = performance.now();
      const { files, truncated } = await listRepoFiles(big);
      const ms = performance.now() - t0;
      expect(truncated).toBe(false);
      expect(files).toHaveLength(50_000);
      expect(files[0]).toBe('pkg0/src/file0.ts');
      console.log(`listRepoFiles: 50,000 files in ${Math.round(ms)} ms`);
    } finally {
      rmSync(big, { recursive: true, force: true });
    }
  });
});
