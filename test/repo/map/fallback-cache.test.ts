import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Query } from 'web-tree-sitter';
import {
  GRAMMAR_IDS,
  TagCache,
  defaultTagCacheDir,
  describeSymbol,
  enclosingDefinition,
  fileTags,
  grammarFor,
  loadGrammar,
  newTagStats,
  querySource,
  tagCacheKey,
  tagsForFiles,
  MAX_TAG_FILE_BYTES,
} from '../../../src/repo/map/index.js';
import { SAMPLES } from './samples.js';

const roots: string[] = [];
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});
function tempDir(prefix: string): string {
  const d = mkdtempSync(join(tmpdir(), prefix));
  roots.push(d);
  return d;
}
function makeRepo(files: Record<string, string | Uint8Array>): string {
  const root = tempDir('redline-tags-');
  for (const [f, body] of Object.entries(files)) {
    mkdirSync(dirname(join(root, f)), { recursive: true });
    writeFileSync(join(root, f), body);
  }
  return root;
}
const cacheFiles = (dir: string) =>
  existsSync(dir) ? readdirSync(dir).filter((s) => /^[0-9a-f]{2}$/.test(s)).flatMap((s) => readdirSync(join(dir, s)).map((f) => join(dir, s, f))) : [];

describe('languages', () => {
  it.each([
    ['a.ts', 'typescript'], ['a.mts', 'typescript'], ['a.cts', 'typescript'], ['a.tsx', 'tsx'],
    ['a.js', 'javascript'], ['a.jsx', 'javascript'], ['a.mjs', 'javascript'], ['a.cjs', 'javascript'],
    ['a.py', 'python'], ['a.go', 'go'], ['a.rs', 'rust'], ['A.java', 'java'], ['a.cs', 'c-sharp'],
    ['a.c', 'cpp'], ['a.h', 'cpp'], ['a.cc', 'cpp'], ['a.cpp', 'cpp'], ['a.hpp', 'cpp'],
    ['a.rb', 'ruby'], ['a.php', 'php'], ['a.sh', 'bash'], ['a.bash', 'bash'], ['dir.d/A.TS', 'typescript'],
    ['a.kt', null], ['Makefile', null], ['.bashrc', null], ['README.md', null],
  ])('%s → %s', (file, id) => {
    expect(grammarFor(file)).toBe(id);
  });

  it.each(GRAMMAR_IDS)('the %s tag query compiles against its grammar', async (id) => {
    const g = await loadGrammar(id);
    expect(g.query.patternCount()).toBeGreaterThan(2);
    expect(g.query.captureNames).toContain('name');
    expect(g.query.captureNames.some((c) => c.startsWith('definition.'))).toBe(true);
    expect(g.query.captureNames).toContain('name.reference');
    // Compiled afresh from the text too (what the cache key hashes is what runs).
    new Query(g.language, querySource(id)).delete();
  });

  it('loads each grammar once (one promise per language)', () => {
    expect(loadGrammar('python')).toBe(loadGrammar('python'));
  });
});

describe('text fallback', () => {
  const broken = [
    'export function parseDate(s: string): Date {',
    '  return new Date(s));;; }}} ((( if while',
    '<<<>>> ::: @@@ ### %%% ^^^ &&& ))) ]]] }}} ((( {{{',
    'class Parser {',
    '  parseHeader(line: string) {',
    '    const x = ]] splitLine(line) [[ ;; ))',
    '  }',
    '}',
    ')))) ((((( ]]]] [[[[ }}}} {{{{ ==> <== ::: ;;; ,,,, ....',
    'export const helper = (n: number) => n * 2;',
  ].join('\n');

  it('tags a file that fails to parse from its text, with parsed:false', async () => {
    const root = makeRepo({ 'src/broken.ts': broken });
    const t = await fileTags({ root }, 'src/broken.ts', { cacheDir: false });
    expect(t.parsed).toBe(false);
    expect(t.lang).toBe('typescript');
    const defs = t.defs.map((d) => `${d.line} ${d.kind} ${describeSymbol(d)}`);
    expect(defs).toEqual(expect.arrayContaining(['1 function parseDate()', '4 class Parser', '5 method Parser.parseHeader()', '10 function helper()']));
    expect(t.defs.find((d) => d.name === 'parseDate')!.signature).toBe('export function parseDate(s: string): Date');
    expect(t.refs.filter((r) => r.line === 6).map((r) => r.name)).toEqual(expect.arrayContaining(['splitLine', 'line']));
    expect(describeSymbol(enclosingDefinition(t, 6)!)).toBe('Parser.parseHeader()');
  });

  it('tags a file with an unknown extension from its text (lang null)', async () => {
    const root = makeRepo({
      'src/Parser.kt': 'package demo\n\nclass Parser(val depth: Int) {\n    fun parseHeader(line: String): Header {\n        return Header(splitLine(line))\n    }\n}\n\nfun splitLine(s: String) = s.split(",")\n',
    });
    const t = await fileTags({ root }, 'src/Parser.kt', { cacheDir: false });
    expect(t).toMatchObject({ file: 'src/Parser.kt', lang: null, parsed: false });
    expect(t.defs.map((d) => `${d.line}-${d.endLine} ${d.kind} ${d.name}`)).toContain('3-7 class Parser');
    expect(t.refs.filter((r) => r.line === 5).map((r) => r.name)).toEqual(expect.arrayContaining(['Header', 'splitLine', 'line']));
  });

  it.each(Object.keys(SAMPLES))('never throws on %s text, whatever it is fed', async (lang) => {
    const { file, text } = SAMPLES[lang]!;
    // Every sample cut in half and with its braces stripped: broken in a different way each time.
    const root = makeRepo({ [file]: text.slice(0, Math.floor(text.length / 2)).replace(/[{}]/g, '') + '\n)))}}}' });
    const t = await fileTags({ root }, file, { cacheDir: false });
    expect(t.file).toBe(file);
    expect(Array.isArray(t.defs) && Array.isArray(t.refs)).toBe(true);
  });
});

describe('files that give no tags', () => {
  it('returns empty tags for a binary file, a missing file, a folder, a path outside and an oversized file', async () => {
    const outside = tempDir('redline-outside-');
    writeFileSync(join(outside, 'secret.ts'), 'export function secret() {}\n');
    const root = makeRepo({
      'assets/logo.ts': new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]),
      'src/big.js': 'export function big() {}\n' + '//'.padEnd(100, 'x').concat('\n').repeat(Math.ceil(MAX_TAG_FILE_BYTES / 100) + 10),
      'src/dir/keep.ts': 'export const a = 1;\n',
    });
    const { symlinkSync } = await import('node:fs');
    symlinkSync(join(outside, 'secret.ts'), join(root, 'src/link.ts'));
    const stats = newTagStats();
    const out = await tagsForFiles({ root }, ['assets/logo.ts', 'src/missing.ts', 'src/dir', '../x.ts', 'src/link.ts', 'src/big.js'], { cacheDir: false, stats });
    for (const [file, t] of out) expect(t, file).toEqual({ file, lang: null, defs: [], refs: [], parsed: false });
    expect(stats).toMatchObject({ files: 6, skipped: 6, parsed: 0 });
  });

  it('tags files in the order given, each once', async () => {
    const root = makeRepo({ 'b.py': 'def b():\n    pass\n', 'a.py': 'def a():\n    pass\n' });
    const out = await tagsForFiles({ root }, ['b.py', 'a.py', 'b.py'], { cacheDir: false, concurrency: 2 });
    expect([...out.keys()]).toEqual(['b.py', 'a.py']);
    expect(out.get('a.py')!.defs[0]!.name).toBe('a');
  });
});

describe('tag cache', () => {
  const source = 'export function parseDate(s: string): Date {\n  return new Date(s);\n}\n';

  it('hits on a second call, and misses after the file changes', async () => {
    const root = makeRepo({ 'src/date.ts': source });
    const cacheDir = tempDir('redline-cache-');
    const first = newTagStats();
    const a = await fileTags({ root }, 'src/date.ts', { cacheDir, stats: first });
    expect(first).toMatchObject({ cacheHits: 0, parsed: 1 });
    expect(cacheFiles(cacheDir)).toHaveLength(1);

    const second = newTagStats();
    const b = await fileTags({ root }, 'src/date.ts', { cacheDir, stats: second });
    expect(second).toMatchObject({ cacheHits: 1, parsed: 0 });
    expect(b).toEqual(a);

    writeFileSync(join(root, 'src/date.ts'), source.replace('parseDate', 'parseDay'));
    const third = newTagStats();
    const c = await fileTags({ root }, 'src/date.ts', { cacheDir, stats: third });
    expect(third).toMatchObject({ cacheHits: 0, parsed: 1 });
    expect(c.defs[0]!.name).toBe('parseDay');
    expect(cacheFiles(cacheDir)).toHaveLength(2);
  });

  it('round-trips every sample exactly (same tags from the cache as from the parse)', async () => {
    const root = makeRepo(Object.fromEntries(Object.values(SAMPLES).map((s) => [s.file, s.text])));
    const files = Object.values(SAMPLES).map((s) => s.file);
    const cacheDir = tempDir('redline-cache-');
    const fresh = await tagsForFiles({ root }, files, { cacheDir });
    const stats = newTagStats();
    const cached = await tagsForFiles({ root }, files, { cacheDir, stats });
    expect(stats.cacheHits).toBe(files.length);
    expect(cached).toEqual(fresh);
  });

  it('shares one entry between two paths with the same content, but not across grammars', async () => {
    const root = makeRepo({ 'a/x.ts': source, 'b/y.ts': source, 'c/z.tsx': source });
    const cacheDir = tempDir('redline-cache-');
    const stats = newTagStats();
    const out = await tagsForFiles({ root }, ['a/x.ts', 'b/y.ts', 'c/z.tsx'], { cacheDir, stats, concurrency: 1 });
    expect(stats).toMatchObject({ cacheHits: 1, parsed: 2 });
    expect(out.get('b/y.ts')!.file).toBe('b/y.ts');
    expect(out.get('c/z.tsx')!.lang).toBe('tsx');
  });

  it('ignores a corrupt entry, tags afresh and repairs it', async () => {
    const root = makeRepo({ 'src/date.ts': source });
    const cacheDir = tempDir('redline-cache-');
    const good = await fileTags({ root }, 'src/date.ts', { cacheDir });
    const [entry] = cacheFiles(cacheDir);
    for (const garbage of ['{"v":1,"lang":"typescript","parsed":tr', 'null', '{"v":1,"lang":"typescript","parsed":true,"defs":[{"name":3}],"refs":{}}', '\u0000\u0001', '{"v":999,"lang":null,"parsed":true,"defs":[],"refs":{}}']) {
      writeFileSync(entry!, garbage);
      const stats = newTagStats();
      const t = await fileTags({ root }, 'src/date.ts', { cacheDir, stats });
      expect(stats).toMatchObject({ cacheHits: 0, parsed: 1 });
      expect(t).toEqual(good);
    }
    const stats = newTagStats();
    await fileTags({ root }, 'src/date.ts', { cacheDir, stats });
    expect(stats.cacheHits).toBe(1);
  });

  it('writes atomically: no temporary files are left behind', async () => {
    const root = makeRepo(Object.fromEntries(Object.values(SAMPLES).map((s) => [s.file, s.text])));
    const cacheDir = tempDir('redline-cache-');
    await tagsForFiles({ root }, Object.values(SAMPLES).map((s) => s.file), { cacheDir });
    const names = cacheFiles(cacheDir);
    expect(names.length).toBe(Object.keys(SAMPLES).length);
    expect(names.every((n) => n.endsWith('.json'))).toBe(true);
  });

  it('survives a cache folder it cannot write (tags still come back)', async () => {
    const root = makeRepo({ 'src/date.ts': source });
    const blocker = join(tempDir('redline-cache-'), 'file');
    writeFileSync(blocker, 'not a folder');
    const t = await fileTags({ root }, 'src/date.ts', { cacheDir: join(blocker, 'tags') });
    expect(t.defs[0]!.name).toBe('parseDate');
  });

  it('evicts the oldest entries past its size cap', async () => {
    const cacheDir = tempDir('redline-cache-');
    const cache = new TagCache(cacheDir, { maxBytes: 2_000, pruneEveryMs: 0 });
    const tags = { lang: 'typescript', parsed: true, defs: [], refs: [{ name: 'x'.repeat(300), line: 1 }] };
    const keys: string[] = [];
    for (let i = 0; i < 10; i++) {
      const key = tagCacheKey(Buffer.from(`file ${i}`), 'typescript');
      keys.push(key);
      await cache.set(key, tags);
      const p = join(cacheDir, key.slice(0, 2), `${key}.json`);
      utimesSync(p, 1_000 + i, 1_000 + i); // written in order: 0 is the oldest
    }
    const r = await cache.prune();
    expect(r.bytes).toBeLessThanOrEqual(2_000 * 0.8);
    expect(r.removed).toBeGreaterThan(0);
    expect(cache.get(keys[0]!)).toBeUndefined();
    expect(cache.get(keys[9]!)).toBeDefined();
  });

  it('keys on content, grammar and version; picks its folder from the environment', () => {
    const bytes = Buffer.from(source);
    expect(tagCacheKey(bytes, 'typescript')).toBe(tagCacheKey(Buffer.from(source), 'typescript'));
    expect(tagCacheKey(bytes, 'typescript')).not.toBe(tagCacheKey(bytes, 'tsx'));
    expect(tagCacheKey(bytes, 'typescript', 'q1')).not.toBe(tagCacheKey(bytes, 'typescript', 'q2'));
    expect(defaultTagCacheDir({ REDLINE_CACHE_DIR: '/c/r', XDG_CACHE_HOME: '/x' })).toBe('/c/r/tags');
    expect(defaultTagCacheDir({ XDG_CACHE_HOME: '/x' })).toBe('/x/redline/tags');
    expect(defaultTagCacheDir({})).toMatch(/\.cache\/redline\/tags$/);
  });
});
