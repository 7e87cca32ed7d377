/**
 * The committed Action (dist/action) must be what the sources build today, file for file and byte for
 * byte (as well-kept Actions check in CI; .github/workflows/ci.yml does the same with git diff), and its
 * gzipped grammars must be exactly the grammars the package ships: no language lost to the size cut.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { GRAMMAR_IDS } from '../../src/repo/map/index.js';
import { ROOT } from './harness.js';

const DIST = join(ROOT, 'dist/action');
const files = (dir: string): string[] => readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name).slice(dir.length + 1)).sort();

let fresh: string;
beforeAll(() => {
  fresh = mkdtempSync(join(tmpdir(), 'redline-action-build-'));
  execFileSync(process.execPath, [join(ROOT, 'scripts/build-action.mjs'), fresh], { cwd: ROOT, stdio: 'pipe' });
});
afterAll(() => rmSync(fresh, { recursive: true, force: true }));

it('dist/action is fresh (else: run npm run build:action and commit dist/action)', () => {
  expect(files(DIST), 'dist/action has other files than a fresh build: run npm run build:action').toEqual(files(fresh));
  // Not toEqual on the bytes: a 5 MB diff helps nobody; the message says what to do.
  const stale = files(fresh).filter((f) => !readFileSync(join(DIST, f)).equals(readFileSync(join(fresh, f))));
  expect(stale, 'stale files in dist/action: run npm run build:action').toEqual([]);
});

it('every grammar the map uses ships gzipped and inflates to the package\'s wasm', () => {
  const require = createRequire(join(ROOT, 'package.json'));
  for (const id of GRAMMAR_IDS) {
    const shipped = gunzipSync(readFileSync(join(DIST, `tree-sitter-${id}.wasm.gz`)));
    expect(shipped.equals(readFileSync(require.resolve(`@vscode/tree-sitter-wasm/wasm/tree-sitter-${id}.wasm`))), id).toBe(true);
  }
  for (const asset of ['index.js', 'web-tree-sitter.wasm', 'rg', 'grep.txt', 'system.txt', 'queries/ecma.scm']) expect(files(DIST)).toContain(asset);
});
