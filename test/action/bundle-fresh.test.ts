/** The committed Action bundle must be what the sources build today (as well-kept Actions check in CI). */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { BUNDLE, ROOT } from './harness.js';

it('dist/action/index.js is fresh (else: run npm run build:action and commit dist/action)', () => {
  const out = mkdtempSync(join(tmpdir(), 'redline-action-build-'));
  try {
    execFileSync(process.execPath, [join(ROOT, 'scripts/build-action.mjs'), out], { cwd: ROOT, stdio: 'pipe' });
    for (const asset of ['web-tree-sitter.wasm', 'tree-sitter-typescript.wasm', 'grep.txt', 'system.txt', 'queries/ecma.scm', 'rg']) {
      expect(existsSync(join(ROOT, 'dist/action', asset)), `dist/action/${asset} is missing: run npm run build:action`).toBe(true);
    }
    const fresh = readFileSync(join(out, 'index.js'), 'utf8');
    const committed = existsSync(BUNDLE) ? readFileSync(BUNDLE, 'utf8') : '';
    // Not toBe: a 5 MB diff helps nobody; the message says what to do.
    expect(committed === fresh, 'dist/action/index.js is stale: run npm run build:action').toBe(true);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});
