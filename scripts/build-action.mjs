// Bundles the Action (src/doors/action-entry.ts, which calls run() of src/doors/action.ts) into dist/action/index.js with esbuild, and copies what the
// bundle reads at run time next to it: the tree-sitter wasm (runtime + grammars), the tool and prompt
// `.txt` files, the tag queries, and ripgrep for linux-x64 (GitHub's hosted runners).
// Usage: node scripts/build-action.mjs [outDir]   (default dist/action; tests build into a temp dir)
// Size (every job that uses the Action fetches and unpacks it; `npm run bench` prints the parts): the
// bundle is minified (8.0 MB → 4.5 MB) and the grammars are gzipped (20.5 MB → 1.8 MB; languages.ts
// inflates one in memory when it is first used). ripgrep stays raw: it must be a file to run.
import { build } from 'esbuild';
import { gzipSync } from 'fflate';
import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
// --no-minify: only for `npm run bench`, which measures what minifying saves.
const minify = !argv.includes('--no-minify');
const out = resolve(argv.find((a) => !a.startsWith('--')) ?? join(root, 'dist/action'));
const require = createRequire(join(root, 'package.json'));
const GRAMMARS = ['typescript', 'tsx', 'javascript', 'python', 'go', 'rust', 'java', 'c-sharp', 'cpp', 'ruby', 'php', 'bash'];
const TEXT_ASSETS = ['src/locate/tools', 'src/locate/agent'];

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

await build({
  absWorkingDir: root,
  entryPoints: [join(root, 'src/doors/action-entry.ts')],
  outfile: join(out, 'index.js'),
  bundle: true,
  platform: 'node',
  // The runner runs it on node24 (action.yml); node20 is the oldest Node the tests run it on.
  target: 'node20',
  format: 'esm',
  legalComments: 'none',
  minify,
  // Error classes and their `name` stay readable in the step's log.
  keepNames: true,
  logLevel: 'warning',
  alias: { '@vscode/ripgrep': join(root, 'scripts/action-shims/ripgrep.mjs') },
  define: { __filename: '__redline_filename', __dirname: '__redline_dirname' },
  // CommonJS dependencies inside an ESM bundle still use require/__dirname.
  banner: {
    js: [
      "import { createRequire as __redlineCreateRequire } from 'node:module';",
      "import { fileURLToPath as __redlineFileURLToPath } from 'node:url';",
      "import { dirname as __redlineDirname } from 'node:path';",
      'const require = __redlineCreateRequire(import.meta.url);',
      // Unique names, substituted for the free __filename/__dirname of CommonJS dependencies through
      // `define`: some ESM dependencies (@azure/storage-common) declare their own top-level __filename.
      'const __redline_filename = __redlineFileURLToPath(import.meta.url);',
      'const __redline_dirname = __redlineDirname(__redline_filename);',
    ].join('\n'),
  },
});
// ESM whatever package.json sits above the Action's checkout.
writeFileSync(join(out, 'package.json'), '{ "type": "module" }\n');

cpSync(require.resolve('web-tree-sitter/web-tree-sitter.wasm'), join(out, 'web-tree-sitter.wasm'));
// fflate, not node:zlib: the same bytes on every machine (Node's zlib picks SIMD paths by CPU), so a fresh
// build matches the committed one byte for byte (.github/workflows/ci.yml checks that). mtime 0: no date.
for (const id of GRAMMARS) {
  const wasm = readFileSync(require.resolve(`@vscode/tree-sitter-wasm/wasm/tree-sitter-${id}.wasm`));
  writeFileSync(join(out, `tree-sitter-${id}.wasm.gz`), gzipSync(wasm, { level: 9, mtime: 0 }));
}
// `new URL('./grep.txt', import.meta.url)` and `./queries/<id>.scm` resolve next to the bundle.
for (const dir of TEXT_ASSETS) for (const f of readdirSync(join(root, dir))) if (f.endsWith('.txt')) cpSync(join(root, dir, f), join(out, f));
cpSync(join(root, 'src/repo/map/queries'), join(out, 'queries'), { recursive: true });

const rgCandidates = [join(root, 'node_modules/@vscode/ripgrep-linux-x64/bin/rg'), join(root, 'node_modules/@vscode/ripgrep/bin/rg')];
const rg = rgCandidates.find((p) => existsSync(p));
if (!rg) throw new Error('ripgrep for linux-x64 not found in node_modules (npm install --os=linux --cpu=x64 @vscode/ripgrep-linux-x64)');
cpSync(rg, join(out, 'rg'));
chmodSync(join(out, 'rg'), 0o755);
