// The committed Action's size (every job that uses it downloads the repository at the tag and unpacks it)
// and one run of it on a real Node 24. Part of `npm run bench`; prints figures, asserts nothing.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const root = new URL('..', import.meta.url).pathname;
const DIST = join(root, 'dist/action');
/** The size set for the committed Action (it was 34.5 MB with raw grammars and an unminified bundle). */
const TARGET_BYTES = 20e6;
const mb = (n) => `${(n / 1e6).toFixed(2).padStart(6)} MB`;
const files = (dir) => readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));

export async function benchAction() {
  const all = files(DIST).map((f) => ({ f: f.slice(DIST.length + 1), n: statSync(f).size }));
  const sum = (pred) => all.filter(({ f }) => pred(f)).reduce((a, { n }) => a + n, 0);
  const total = sum(() => true);
  const grammars = all.filter(({ f }) => /^tree-sitter-.*\.wasm\.gz$/.test(f));
  const biggest = grammars.reduce((a, b) => (b.n > a.n ? b : a), { f: '', n: 0 });
  console.log(`\nThe committed Action (dist/action): ${mb(total)}  target < ${mb(TARGET_BYTES)}`);
  console.log(`  bundle index.js (minified)     ${mb(sum((f) => f === 'index.js'))}`);
  console.log(`  ripgrep (linux-x64)            ${mb(sum((f) => f === 'rg'))}`);
  console.log(`  ${grammars.length} grammars, gzipped          ${mb(sum((f) => f.endsWith('.wasm.gz')))}  largest ${biggest.f} ${mb(biggest.n)}`);
  console.log(`  web-tree-sitter.wasm           ${mb(sum((f) => f === 'web-tree-sitter.wasm'))}`);
  console.log(`  the rest (${all.length - grammars.length - 3} files: prompts, queries)  ${mb(sum((f) => !['index.js', 'rg', 'web-tree-sitter.wasm'].includes(f) && !f.endsWith('.wasm.gz')))}`);

  // What each size cut saves, measured against what it replaced.
  const require = createRequire(join(root, 'package.json'));
  const rawGrammars = grammars.reduce((a, { f }) => a + statSync(require.resolve(`@vscode/tree-sitter-wasm/wasm/${f.replace(/\.gz$/, '')}`)).size, 0);
  const plain = mkdtempSync(join(tmpdir(), 'redline-bench-action-'));
  try {
    execFileSync(process.execPath, [join(root, 'scripts/build-action.mjs'), plain, '--no-minify'], { stdio: 'pipe' });
    const unminified = statSync(join(plain, 'index.js')).size;
    const rgGz = gzipSync(readFileSync(join(DIST, 'rg')), { level: 9 }).length;
    console.log('  what each cut saves:');
    console.log(`    minified bundle              ${mb(unminified)} → ${mb(sum((f) => f === 'index.js'))}`);
    console.log(`    gzipped grammars             ${mb(rawGrammars)} → ${mb(sum((f) => f.endsWith('.wasm.gz')))}`);
    console.log(`    (not done) gzipped ripgrep   ${mb(sum((f) => f === 'rg'))} → ${mb(rgGz)}  (it must be a file to run: inflated to a cache at run time)`);
  } finally {
    rmSync(plain, { recursive: true, force: true });
  }
  // What a job downloads: GitHub serves the repository at the tag as a gzipped tarball.
  const archive = (paths) => spawnSync('git', ['archive', '--format=tar.gz', 'HEAD', ...paths], { cwd: root, maxBuffer: 1 << 30 }).stdout.length;
  console.log(`  download (git archive HEAD, gzipped): dist/action ${mb(archive(['dist/action']))}, whole repository ${mb(archive([]))}`);

  // One run on Node 24: mode 2 with write access against the local GitHub, from a copy of dist/action
  // outside the repository (as the runner has it). The local GitHub and the harness are TypeScript: tsx.
  const { tsImport } = await import('tsx/esm/api');
  const { FIXTURE, HEAD_SHA, NODE24, REPO, prFiles, startActionHarness } = await tsImport('../test/action/harness.ts', import.meta.url);
  const checkout = mkdtempSync(join(tmpdir(), 'redline-bench-checkout-'));
  cpSync(DIST, join(checkout, 'dist/action'), { recursive: true });
  const times = [];
  try {
    for (let i = 0; i < 3; i++) {
      const h = await startActionHarness();
      try {
        h.fake.addPull(REPO, { number: 7, head: { ref: 'currency', sha: HEAD_SHA }, files: prFiles() });
        const res = await h.run({ GITHUB_EVENT_NAME: 'pull_request', GITHUB_EVENT_PATH: h.event(), 'INPUT_LOG-FILE': join(FIXTURE, 'log.txt') }, { node: NODE24, bundle: join(checkout, 'dist/action/index.js') });
        times.push({ ms: res.ms, ok: res.code === 0 && res.outputs.status === 'located' && h.fake.repo(REPO).reviewComments.length === 1 });
      } finally {
        await h.close();
      }
    }
  } finally {
    rmSync(checkout, { recursive: true, force: true });
  }
  const ms = times.map((t) => t.ms).sort((a, b) => a - b);
  const version = execFileSync(NODE24, ['--version'], { encoding: 'utf8' }).trim();
  console.log(`  one run on Node ${version} (mode 2, review comment posted, process start to exit): best ${ms[0].toFixed(0)} ms, median ${ms[1].toFixed(0)} ms${times.every((t) => t.ok) ? '' : '  (a run did not post its comment!)'}`);
}

if (import.meta.url === `file://${process.argv[1]}`) await benchAction();
