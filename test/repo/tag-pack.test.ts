import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync, mkdirSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tagsForFiles, newTagStats } from '../../src/repo/map/tags.js';

/** The per-repository pack: a warm run stats files instead of reading them; a changed file is re-tagged. */
const dir = mkdtempSync(join(tmpdir(), 'redline-pack-'));
const repo = join(dir, 'repo');
const cacheDir = join(dir, 'cache');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

mkdirSync(join(repo, 'src'), { recursive: true });
writeFileSync(join(repo, 'src/a.ts'), 'export function alpha(x: number) {\n  return beta(x) + 1;\n}\n');
writeFileSync(join(repo, 'src/b.ts'), 'export function beta(x: number) {\n  return x * 2;\n}\n');
const files = ['src/a.ts', 'src/b.ts'];

describe('tag pack', () => {
  it('is written on a cold run and read on a warm one', async () => {
    const cold = newTagStats();
    const first = await tagsForFiles({ root: repo }, files, { cacheDir, stats: cold });
    expect(first.get('src/a.ts')?.defs.map((d) => d.name)).toEqual(['alpha']);
    expect(cold.parsed).toBe(2);
    expect(readdirSync(join(cacheDir, 'packs')).length).toBe(1);
    const warm = newTagStats();
    const second = await tagsForFiles({ root: repo }, files, { cacheDir, stats: warm });
    expect(warm.cacheHits).toBe(2);
    expect(warm.parsed).toBe(0);
    expect(second.get('src/a.ts')).toEqual(first.get('src/a.ts'));
    expect(second.get('src/a.ts')?.refs.map((r) => r.name)).toContain('beta');
  });

  it('re-tags a file whose content changed', async () => {
    writeFileSync(join(repo, 'src/b.ts'), 'export function gamma(x: number) {\n  return x * 3;\n}\n\nexport const ZETA = 1;\n');
    const stats = newTagStats();
    const t = await tagsForFiles({ root: repo }, files, { cacheDir, stats });
    expect(t.get('src/b.ts')?.defs.map((d) => d.name)).toEqual(['gamma', 'ZETA']);
    expect(stats.parsed).toBe(1);
  });

  it('survives a corrupt pack', async () => {
    const packs = join(cacheDir, 'packs');
    for (const p of readdirSync(packs)) writeFileSync(join(packs, p), '{not json');
    const t = await tagsForFiles({ root: repo }, files, { cacheDir });
    expect(t.get('src/a.ts')?.defs.map((d) => d.name)).toEqual(['alpha']);
  });
});
