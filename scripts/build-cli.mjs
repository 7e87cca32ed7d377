// Bundles the CLI (src/bin/redline.ts) with esbuild over tsc's dist/bin/redline.js, so `redline` loads a
// handful of files instead of ~700 modules: resolving, reading and linking them one by one was about half
// of a small diagnosis's CPU (issue 12; README, "Start-up"). Run by `npm run build` after tsc, whose
// per-module dist/ stays for `probot run ./dist/doors/app.js` and for the tests that import it.
//
// Code splitting: what a run may not need (the LLM agent, `map`, `worker`, the config parser) is in chunks
// loaded by the `await import()`s of src/, so a diagnosis without --llm never parses them. The
// chunks sit next to the entry (not in a subfolder): `new URL('./grep.txt', import.meta.url)` and the
// other assets resolve against whichever chunk holds the code, so every asset is copied beside them.
// Usage: node scripts/build-cli.mjs [outDir]   (default dist/bin)
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const out = resolve(process.argv[2] ?? join(root, 'dist/bin'));
const TEXT_ASSETS = ['src/locate/tools', 'src/locate/agent'];
/** Chunk files carry this prefix, so a rebuild can remove the previous build's (their names are hashes). */
const CHUNK_PREFIX = 'chunk-';
// Dependencies stay in node_modules, imported from there at run time (`packages: 'external'`): what a
// diagnosis loads from them is a few files (secretlint's preset, web-tree-sitter, strip-ansi), the heavy
// ones (the Anthropic SDK, zod, yaml, Octokit, Probot) load only on the runs that use them (lazy imports
// in src/), and the App's and the worker's stack (Probot with its Octokit, BullMQ, better-sqlite3's native
// code, ripgrep's binary found through its package) stays exactly the one `npm start` runs.

mkdirSync(out, { recursive: true });

// The CommonJS build of the whole CLI, one file: the entry loads it for `diagnose` through vm.Script with
// V8's code cache written after a run (src/bin/code-cache.ts), which a module Node loads itself cannot have
// (Node 20 has no compile cache; Node ≥ 22's holds only what was compiled before the module ran). Its lazy imports become lazily run wrappers in the same file,
// so it is parsed once but only what a run calls is compiled. Dependencies stay external (require()d; the
// ES-module-only ones need Node ≥ 20.19's require of ES modules, else the entry uses the chunks), except
// those BUNDLED_IN_CJS names: a default import of an ES module through require() would be its namespace
// (strip-ansi), and code bundled here is in the code cache too (the secret rules). Not web-tree-sitter:
// its ES module build declares a `var require` in the function whose import('module') the
// `supported` setting below turns into a require() call, which would then call that undefined local.
const CJS_FILE = 'redline-cli.cjs';
const BUNDLED_IN_CJS = new Set(['strip-ansi', 'ansi-regex', '@secretlint/secretlint-rule-preset-recommend']);
const packageName = (spec) => spec.split('/').slice(0, spec.startsWith('@') ? 2 : 1).join('/');
await build({
  absWorkingDir: root,
  entryPoints: [join(root, 'src/doors/cli.ts')],
  outfile: join(out, CJS_FILE),
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  // ES modules are strict; the bundle's code must stay so as a script. import.meta.url is this file's URL,
  // against which the copied assets resolve as from the chunks.
  banner: { js: '"use strict";var __redline_import_meta_url = require("node:url").pathToFileURL(__filename).href;' },
  define: { 'import.meta.url': '__redline_import_meta_url' },
  // The dependencies' own import()s (of Node's builtins) become require()s: an import() run from a
  // vm.Script needs vm's default loader, an experimental feature on Node 20 that warns on stderr.
  supported: { 'dynamic-import': false },
  plugins: [
    {
      name: 'external-packages',
      setup(b) {
        b.onResolve({ filter: /^[^./]/ }, (a) => (BUNDLED_IN_CJS.has(packageName(a.path)) ? undefined : { path: a.path, external: true }));
      },
    },
  ],
  legalComments: 'none',
  minify: false,
  keepNames: true,
  sourcemap: 'linked',
  logLevel: 'warning',
});
const cjsHash = createHash('sha256').update(readFileSync(join(out, CJS_FILE))).digest('hex').slice(0, 16);

const result = await build({
  metafile: true,
  absWorkingDir: root,
  entryPoints: { redline: join(root, 'src/bin/redline.ts'), 'token-worker': join(root, 'src/repo/map/token-worker.ts') },
  outdir: out,
  chunkNames: `${CHUNK_PREFIX}[hash]`,
  bundle: true,
  splitting: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  packages: 'external',
  legalComments: 'none',
  // Not minified: a user's bug report quotes stack traces; names and lines stay readable.
  minify: false,
  keepNames: true,
  sourcemap: 'linked',
  logLevel: 'warning',
  define: { __REDLINE_CJS_BUNDLE__: JSON.stringify({ file: `./${CJS_FILE}`, hash: cjsHash }) },
});

for (const dir of TEXT_ASSETS) for (const f of readdirSync(join(root, dir))) if (f.endsWith('.txt')) cpSync(join(root, dir, f), join(out, f));
cpSync(join(root, 'src/repo/map/queries'), join(out, 'queries'), { recursive: true });
// The previous build's chunks are removed after this one is written, not before: chunk names are content
// hashes, so an unchanged source rewrites the same files and a CLI started meanwhile (tests run beside a
// build) never finds its chunks missing.
const written = new Set(Object.keys(result.metafile.outputs).map((o) => resolve(root, o)));
for (const f of readdirSync(out)) if (f.startsWith(CHUNK_PREFIX) && !written.has(join(out, f))) rmSync(join(out, f));
// REDLINE_BUILD_METAFILE=path: esbuild's metafile, to see which module pulls what into a chunk.
if (process.env.REDLINE_BUILD_METAFILE) writeFileSync(process.env.REDLINE_BUILD_METAFILE, JSON.stringify(result.metafile));
