import { rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { globTool } from '../../../src/locate/tools/glob.js';
import { runTool } from '../../../src/locate/tools/tool.js';
import { makeRepo, spyContext } from './helpers.js';

const files: Record<string, string> = {
  'src/a.ts': '',
  'src/deep/b.ts': '',
  'src/deep/b.test.ts': '',
  'lib/c.js': '',
  '.github/workflows/ci.yml': '',
  '.gitignore': 'dist/\n',
  'dist/out.ts': '',
  '-dash.ts': '',
};
for (let i = 0; i < 130; i++) files[`gen/f${String(i).padStart(3, '0')}.md`] = '';
const root = makeRepo(files);
const outside = makeRepo({ 'x.ts': '' });
symlinkSync(outside, join(root, 'out'));
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

const glob = (args: unknown, ctx = spyContext(root)) => runTool(globTool, args, ctx);

describe('glob', () => {
  it('lists matching files relative to the root, sorted, skipping ignored ones', async () => {
    const r = await glob({ pattern: '*.ts' });
    expect(r.output).toBe(['-dash.ts', 'src/a.ts', 'src/deep/b.test.ts', 'src/deep/b.ts'].join('\n'));
    expect(r.metadata).toMatchObject({ truncated: false, count: 4 });
  });

  it('matches patterns with / from the root and narrows with path', async () => {
    expect((await glob({ pattern: 'src/**/*.test.ts' })).output).toBe('src/deep/b.test.ts');
    expect((await glob({ pattern: '*.ts', path: 'src/deep' })).output).toBe('src/deep/b.test.ts\nsrc/deep/b.ts');
    expect((await glob({ pattern: '*.yml' })).output).toBe('.github/workflows/ci.yml');
  });

  it('says "No files found"', async () => {
    expect((await glob({ pattern: '*.rs' })).output).toMatch(/^No files found/);
  });

  it('caps at 100 paths, says how many were omitted and spills the full list', async () => {
    const ctx = spyContext(root);
    const r = await glob({ pattern: '*.md' }, ctx);
    expect(r.output.split('\n').filter((l) => l.startsWith('gen/'))).toHaveLength(100);
    expect(r.output).toMatch(/Showing 100 of 130 paths; 30 omitted\. Use a more specific pattern/);
    expect(r.metadata).toMatchObject({ truncated: true, count: 130 });
    expect([...ctx.spilled.values()][0]!.trim().split('\n')).toHaveLength(130);
  });

  it('refuses folders outside the repository', async () => {
    expect((await glob({ pattern: '*.ts', path: '..' })).output).toMatch(/outside the repository/);
    expect((await glob({ pattern: '*.ts', path: 'out' })).output).toMatch(/outside the repository/);
    expect((await glob({ pattern: '*.ts', path: 'src/a.ts' })).output).toMatch(/not a folder/);
  });
});
