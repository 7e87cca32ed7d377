import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { globTool, grepTool, readTool, runTool, TOOLS } from '../../../src/locate/tools/index.js';
import { makeRepo } from './helpers.js';

const root = makeRepo({ 'a.txt': 'hello\n' });
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('tool contract', () => {
  it('loads the model-facing descriptions from the .txt files', () => {
    expect(TOOLS.map((t) => t.id)).toEqual(['grep', 'glob', 'read']);
    expect(grepTool.description).toMatch(/regular expression/);
    expect(globTool.description).toMatch(/glob/);
    expect(readTool.description).toMatch(/offset/);
    for (const t of TOOLS) expect(t.description.length).toBeGreaterThan(200);
  });

  it('turns invalid arguments into a helpful result instead of throwing', async () => {
    const r = await runTool(grepTool, { path: 'src' }, { root });
    expect(r.metadata.error).toBeDefined();
    expect(r.metadata.truncated).toBe(false);
    expect(r.output).toMatch(/Invalid arguments for tool "grep"/);
    expect(r.output).toMatch(/- pattern: /);
    expect(r.output).toMatch(/pattern: string, path\?: string, include\?: string/);

    const bad = await runTool(readTool, { path: 'a.txt', offset: 0, limit: 'many' }, { root });
    expect(bad.output).toMatch(/- offset: /);
    expect(bad.output).toMatch(/- limit: /);

    expect((await runTool(globTool, null, { root })).output).toMatch(/Invalid arguments for tool "glob"/);
    expect((await runTool(grepTool, { pattern: '' }, { root })).output).toMatch(/pattern must not be empty/);
  });

  it('accepts arguments as a JSON string and numbers as strings', async () => {
    const r = await runTool(readTool, '{"path":"a.txt","offset":"1"}', { root });
    expect(r.output).toMatch(/^00001\| hello/);
  });

  it('turns paths outside the repository into a result', async () => {
    const r = await runTool(readTool, { path: '../../etc/passwd' }, { root });
    expect(r.metadata.error).toBeDefined();
    expect(r.output).toMatch(/outside the repository/);
    expect(r.output).not.toMatch(/root:/);
  });
});
