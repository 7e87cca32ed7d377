import { describe, expect, it } from 'vitest';
import type { FileTags } from '../../src/repo/map/types.js';
import { buildSymbolGraph, reachFrom, resolveName, definitionAt } from '../../src/repo/map/symbol-graph.js';
import { buildRepoMap, rankFiles } from '../../src/repo/map/repo-map.js';
import { countTokens } from '../../src/repo/map/tokens.js';

/** Tags are our own data structure: these tests build them directly to check the graph and the map. */
function tags(file: string, defs: [string, number, number, string?][], refs: [string, number][]): FileTags {
  return {
    file,
    lang: 'typescript',
    parsed: true,
    defs: defs.map(([name, line, endLine, container]) => ({ name, kind: 'function', line, endLine, signature: `export function ${name}()`, ...(container ? { container } : {}) })),
    refs: refs.map(([name, line]) => ({ name, line })),
  };
}

const repo = new Map<string, FileTags>([
  ['test/orders.test.ts', tags('test/orders.test.ts', [['listsOrders', 3, 9]], [['listOrders', 5], ['expect', 6]])],
  ['src/orders.ts', tags('src/orders.ts', [['listOrders', 10, 14], ['byNewest', 2, 4]], [['paginate', 12], ['byNewest', 11]])],
  ['src/paginate.ts', tags('src/paginate.ts', [['paginate', 8, 15], ['pageBounds', 2, 6]], [['pageBounds', 9]])],
  ['src/unrelated.ts', tags('src/unrelated.ts', [['formatBanner', 1, 5]], [])],
]);

describe('symbol graph', () => {
  const g = buildSymbolGraph(repo);

  it('follows calls from the test to the definitions it reaches, with depth and chain', () => {
    const reached = reachFrom(g, { file: 'test/orders.test.ts', line: 6 }, 3);
    const byName = new Map([...reached.values()].map((r) => [r.site.def.name, r]));
    expect(byName.get('listOrders')?.depth).toBe(1);
    expect(byName.get('paginate')?.depth).toBe(2);
    expect(byName.get('pageBounds')?.depth).toBe(3);
    expect(byName.get('pageBounds')?.chain).toEqual(['listsOrders', 'listOrders', 'paginate', 'pageBounds']);
    expect(byName.has('formatBanner')).toBe(false);
  });

  it('stops at the depth asked for', () => {
    const reached = reachFrom(g, { file: 'test/orders.test.ts', line: 6 }, 2);
    expect([...reached.values()].some((r) => r.site.def.name === 'pageBounds')).toBe(false);
  });

  it('prefers a same-file definition and drops names defined in too many files', () => {
    const many = new Map(repo);
    for (let i = 0; i < 8; i++) many.set(`src/x${i}.ts`, tags(`src/x${i}.ts`, [['render', 1, 2]], []));
    many.set('src/local.ts', tags('src/local.ts', [['render', 1, 2]], [['render', 5]]));
    const gm = buildSymbolGraph(many);
    expect(resolveName(gm, 'render', 'src/local.ts').map((s) => s.file)).toEqual(['src/local.ts']);
    expect(resolveName(gm, 'render', 'src/other.ts')).toEqual([]);
  });

  it('finds the innermost definition at a line', () => {
    const t = tags('a.ts', [['Outer', 1, 20], ['inner', 5, 8, 'Outer']], []);
    expect(definitionAt(t, 6)?.name).toBe('inner');
    expect(definitionAt(t, 12)?.name).toBe('Outer');
    expect(definitionAt(t, 30)).toBeUndefined();
  });
});

describe('repo map', () => {
  it('personalised PageRank ranks what the seed leans on above unrelated files', () => {
    const rank = rankFiles(buildSymbolGraph(repo), new Set(['test/orders.test.ts']));
    expect(rank.get('src/orders.ts')!).toBeGreaterThan(rank.get('src/unrelated.ts')!);
    expect(rank.get('src/paginate.ts')!).toBeGreaterThan(rank.get('src/unrelated.ts')!);
  });

  it('shows only signatures, fits the token budget exactly, and says what it left out', async () => {
    const full = await buildRepoMap(repo, { tokens: 10_000, focusFiles: ['test/orders.test.ts'] });
    expect(full.omitted).toBe(0);
    expect(full.text).toContain('src/paginate.ts:');
    expect(full.text).toContain('export function pageBounds()');
    const small = await buildRepoMap(repo, { tokens: 40, focusFiles: ['test/orders.test.ts'] });
    expect(small.tokens).toBeLessThanOrEqual(40);
    expect(countTokens(small.text)).toBe(small.tokens);
    expect(small.omitted).toBeGreaterThan(0);
    expect(small.text).toMatch(/more definitions not shown/);
  });

  it('puts a focused symbol in even under a tight budget', async () => {
    const m = await buildRepoMap(repo, { tokens: 60, focusSymbols: ['formatBanner'] });
    expect(m.shown.map((d) => d.def.name)).toContain('formatBanner');
  });
});
