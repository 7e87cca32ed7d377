import { rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { READ_MAX_BYTES, READ_MAX_LINES } from '../../../src/limits.js';
import { readTool } from '../../../src/locate/tools/read.js';
import { runTool } from '../../../src/locate/tools/tool.js';
import { makeRepo, spyContext } from './helpers.js';

const lines = (n: number, f = (i: number) => `line ${i}`) => Array.from({ length: n }, (_, i) => f(i + 1)).join('\n') + '\n';
const outside = makeRepo({ 'secret.txt': 'SECRET_TOKEN\n' });
const root = makeRepo({
  'src/config.ts': 'export const a = 1;\r\nexport const b = 2;\nno newline at end',
  'src/configs.ts': '',
  'src/Config.test.ts': '',
  'src/utils.ts': '',
  'big.txt': lines(3000),
  'wide.txt': lines(100, () => 'y'.repeat(1500)),
  'long.txt': `${'z'.repeat(10_000)}\nshort\n`,
  'empty.txt': '',
  'image.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0x0d]),
});
symlinkSync(join(outside, 'secret.txt'), join(root, 'leak.txt'));
symlinkSync('/proc/self/environ', join(root, 'env'));
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

const read = (args: unknown) => runTool(readTool, args, spyContext(root));

describe('read', () => {
  it('numbers lines and ends with the end-of-file note', async () => {
    const r = await read({ path: 'src/config.ts' });
    expect(r.output).toBe(
      '00001| export const a = 1;\n00002| export const b = 2;\n00003| no newline at end\n\n(End of file - 3 lines)',
    );
    expect(r.metadata).toMatchObject({ truncated: false, lines: 3 });
  });

  it('pages with offset and limit', async () => {
    const r = await read({ path: 'big.txt', offset: 10, limit: 3 });
    expect(r.output).toBe('00010| line 10\n00011| line 11\n00012| line 12\n\n(Showing lines 10-12 of 3000. Use offset=13 to continue.)');
    expect((await read({ path: 'big.txt', offset: 2999 })).output).toMatch(/03000\| line 3000\n\n\(End of file - 3000 lines\)$/);
  });

  it(`stops at ${READ_MAX_LINES} lines and at ${READ_MAX_BYTES} bytes`, async () => {
    const byLines = await read({ path: 'big.txt', limit: 99999 });
    expect(byLines.output).toMatch(/\(Showing lines 1-2000 of 3000\. Use offset=2001 to continue\.\)$/);
    const byBytes = await read({ path: 'wide.txt' });
    expect(Buffer.byteLength(byBytes.output)).toBeLessThanOrEqual(READ_MAX_BYTES + 200);
    const m = byBytes.output.match(/Showing lines 1-(\d+) of 100\. Use offset=(\d+) to continue/);
    expect(m).not.toBeNull();
    expect(Number(m![2])).toBe(Number(m![1]) + 1);
    expect(Number(m![1])).toBeLessThan(40);
  });

  it('cuts long lines', async () => {
    const r = await read({ path: 'long.txt' });
    expect(r.output).toMatch(/^00001\| z{2000}… \(line cut at 2000 characters\)\n00002\| short\n/);
  });

  it('handles empty files and offsets past the end', async () => {
    expect((await read({ path: 'empty.txt' })).output).toMatch(/empty/);
    const past = await read({ path: 'src/config.ts', offset: 10 });
    expect(past.output).toMatch(/past the end.*3 lines/);
  });

  it('refuses binary files', async () => {
    const r = await read({ path: 'image.png' });
    expect(r.output).toMatch(/binary file/);
    expect(r.metadata.error).toBeDefined();
  });

  it('suggests near-miss names from the same folder', async () => {
    const r = await read({ path: 'src/confg.ts' });
    expect(r.output).toMatch(/File not found: src\/confg\.ts/);
    expect(r.output).toMatch(/Did you mean one of these\?\n {2}src\/config\.ts/);
    expect(r.output).not.toMatch(/utils/);
    const ext = await read({ path: 'src/config.js' });
    expect(ext.output).toMatch(/src\/config\.ts/);
    const noDir = await read({ path: 'nope/x.ts' });
    expect(noDir.output).toMatch(/does not exist either/);
    expect(noDir.output).toMatch(/glob/);
  });

  it('lists a folder instead of reading it', async () => {
    const r = await read({ path: 'src' });
    expect(r.output).toMatch(/src is a folder/);
    expect(r.output).toMatch(/config\.ts/);
  });

  it('refuses .., absolute paths and symlinks that point out', async () => {
    for (const path of ['../secret.txt', join(outside, 'secret.txt'), '/etc/passwd', 'leak.txt', 'env']) {
      const r = await read({ path });
      expect(r.output, path).toMatch(/outside the repository/);
      expect(r.output).not.toMatch(/SECRET_TOKEN|root:/);
    }
  });
});
