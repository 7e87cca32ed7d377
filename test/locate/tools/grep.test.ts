import { rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { grepTool } from '../../../src/locate/tools/grep.js';
import { runTool } from '../../../src/locate/tools/tool.js';
import { makeRepo, spyContext } from './helpers.js';

const outside = makeRepo({ 'secret.txt': 'needle SECRET_TOKEN\n' });
const root = makeRepo({
  'src/b.ts': 'import { parseConfig } from "./a";\nparseConfig("x");\n',
  'src/a.ts': 'export function parseConfig(raw: string) {\n  return raw;\n}\n',
  'lib/c.py': 'def parseConfig():\n    pass\n',
  'flags.txt': 'run with --verbose\n-x is short\n',
  'long.js': `${'x'.repeat(5000)}needle\n`,
  'bin.dat': Buffer.from('needle\0\0binary'),
  '.gitignore': 'ignored/\n',
  'ignored/x.ts': 'parseConfig\n',
  'many.txt': Array.from({ length: 250 }, (_, i) => `hit ${i}`).join('\n') + '\n',
});
symlinkSync(join(outside, 'secret.txt'), join(root, 'leak.txt'));
symlinkSync(outside, join(root, 'leakdir'));
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

const grep = (args: unknown, ctx = spyContext(root)) => runTool(grepTool, args, ctx);

describe('grep', () => {
  it('groups matches by file, sorted by path then line', async () => {
    const r = await grep({ pattern: 'parseConfig' });
    expect(r.output).toBe(
      [
        'Found 4 matches',
        'lib/c.py:',
        '  Line 1: def parseConfig():',
        '',
        'src/a.ts:',
        '  Line 1: export function parseConfig(raw: string) {',
        '',
        'src/b.ts:',
        '  Line 1: import { parseConfig } from "./a";',
        '  Line 2: parseConfig("x");',
      ].join('\n'),
    );
    expect(r.metadata).toMatchObject({ truncated: false, matches: 4 });
  });

  it('narrows with path and include', async () => {
    expect((await grep({ pattern: 'parseConfig', path: 'src' })).metadata.matches).toBe(3);
    expect((await grep({ pattern: 'parseConfig', path: 'src/a.ts' })).output).toMatch(/^Found 1 match\nsrc\/a\.ts:/);
    const py = await grep({ pattern: 'parseConfig', include: '*.py' });
    expect(py.metadata.matches).toBe(1);
    expect(py.output).toMatch(/lib\/c\.py:/);
  });

  it('says "No matches found"', async () => {
    const r = await grep({ pattern: 'doesNotExistAnywhere' });
    expect(r.output).toMatch(/^No matches found/);
    expect(r.metadata.truncated).toBe(false);
  });

  it('treats a pattern starting with - as data, not a flag', async () => {
    expect((await grep({ pattern: '--verbose' })).output).toMatch(/flags\.txt:\n {2}Line 1: run with --verbose/);
    expect((await grep({ pattern: '-x' })).output).toMatch(/Line 2: -x is short/);
    const files = await grep({ pattern: '--files' });
    expect(files.output).toMatch(/^No matches found/);
  });

  it('caps at 100 matches, says how many were omitted and how to narrow, and spills the rest', async () => {
    const ctx = spyContext(root);
    const r = await grep({ pattern: '^hit \\d+' }, ctx);
    expect(r.metadata).toMatchObject({ truncated: true, matches: 250, shown: 100 });
    expect(r.output.match(/ {2}Line \d+:/g)).toHaveLength(100);
    expect(r.output).toMatch(/Showing 100 of 250 matches; 150 omitted\./);
    expect(r.output).toMatch(/set path/);
    expect(r.output).toMatch(/include/);
    expect(r.output).toMatch(/saved to artifacts\/grep-[0-9a-f]{8}\.txt/);
    const [full] = [...ctx.spilled.values()];
    expect(full!.match(/ {2}Line \d+:/g)).toHaveLength(250);
  });

  it('cuts long lines', async () => {
    const r = await grep({ pattern: 'needle', path: 'long.js' });
    expect(r.output).toMatch(/line cut at 2000 characters/);
    expect(r.output.length).toBeLessThan(2200);
  });

  it('does not search binary files, ignored files or symlinks that lead out', async () => {
    const r = await grep({ pattern: 'needle' });
    expect(r.output).not.toMatch(/bin\.dat/);
    expect(r.output).not.toMatch(/SECRET_TOKEN/);
    expect((await grep({ pattern: 'parseConfig' })).output).not.toMatch(/ignored/);
  });

  it('refuses paths outside the repository', async () => {
    for (const path of ['..', '/etc', 'leak.txt', 'leakdir', '../' ]) {
      const r = await grep({ pattern: 'needle', path });
      expect(r.output, path).toMatch(/outside the repository/);
      expect(r.output).not.toMatch(/SECRET_TOKEN/);
    }
  });

  it('explains a bad regex and a missing path', async () => {
    const bad = await grep({ pattern: 'parseConfig(' });
    expect(bad.metadata.error).toBeDefined();
    expect(bad.output).toMatch(/grep failed/);
    expect(bad.output).toMatch(/escape special characters/);
    const missing = await grep({ pattern: 'x', path: 'nope' });
    expect(missing.output).toMatch(/does not exist/);
  });

  it('reads the bounds from the file, not the flags of the caller', async () => {
    writeFileSync(join(root, 'rg.conf'), '--pre=/bin/sh\n');
    process.env.RIPGREP_CONFIG_PATH = join(root, 'rg.conf');
    try {
      expect((await grep({ pattern: 'parseConfig', path: 'src' })).metadata.matches).toBe(3);
    } finally {
      delete process.env.RIPGREP_CONFIG_PATH;
    }
  });
});
