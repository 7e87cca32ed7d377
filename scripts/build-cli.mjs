// Bundles the CLI (src/bin/redline.ts) with esbuild over tsc's dist/bin/redline.js, so `redline` loads a
// handful of files instead of ~700 modules: resolving, reading and linking them one by one was about half
// of a small diagnosis's CPU (issue 12; README, "Start-up"). Run by `npm run build` after tsc, whose
// per-module dist/ stays for `probot run ./dist/doors/app.js` and for the tests that import it.
//
// Code splitting: what a run may not need (the LLM SDK and agent, `map`, `worker`, tree-sitter) is in
// chunks loaded by the `await import()`s of src/, so a diagnosis without --llm never parses them. The
// chunks sit next to the entry (not in a subfolder): `new URL('./grep.txt', import.meta.url)` and the
// other assets resolve against whichever chunk holds the code, so every asset is copied beside them.
// Usage: node scripts/build-cli.mjs [outDir]   (default dist/bin)
import { build } from 'esbuild';
import { cpSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const out = resolve(process.argv[2] ?? join(root, 'dist/bin'));
const require = createRequire(join(root, 'package.json'));
const TEXT_ASSETS = ['src/locate/tools', 'src/locate/agent'];
/** Chunk files carry this prefix, so a rebuild can remove the previous build's (their names are hashes). */
const CHUNK_PREFIX = 'chunk-';
// Not bundled, resolved from node_modules at run time: native code (better-sqlite3), a package that finds
// its binary through its own __dirname (@vscode/ripgrep), and the worker's server stack (Probot's pino
// transports and BullMQ's Lua scripts are read from their package folders). None loads on `diagnose`.
const EXTERNAL = ['better-sqlite3', '@vscode/ripgrep', 'probot', 'bullmq', 'ioredis'];

mkdirSync(out, { recursive: true });
for (const f of readdirSync(out)) if (f.startsWith(CHUNK_PREFIX)) rmSync(join(out, f));

const result = await build({
  metafile: !!process.env.REDLINE_BUILD_METAFILE,
  absWorkingDir: root,
  entryPoints: { redline: join(root, 'src/bin/redline.ts'), 'token-worker': join(root, 'src/repo/map/token-worker.ts') },
  outdir: out,
  chunkNames: `${CHUNK_PREFIX}[hash]`,
  bundle: true,
  splitting: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  external: EXTERNAL,
  legalComments: 'none',
  // Not minified: a user's bug report quotes stack traces; names and lines stay readable.
  minify: false,
  keepNames: true,
  sourcemap: 'linked',
  logLevel: 'warning',
  define: { __filename: '__redline_filename', __dirname: '__redline_dirname' },
  // CommonJS dependencies inside an ESM bundle still use require/__dirname (as in scripts/build-action.mjs).
  banner: {
    js: [
      "import { createRequire as __redlineCreateRequire } from 'node:module';",
      "import { fileURLToPath as __redlineFileURLToPath } from 'node:url';",
      "import { dirname as __redlineDirname } from 'node:path';",
      'const require = __redlineCreateRequire(import.meta.url);',
      'const __redline_filename = __redlineFileURLToPath(import.meta.url);',
      'const __redline_dirname = __redlineDirname(__redline_filename);',
    ].join('\n'),
  },
});

cpSync(require.resolve('web-tree-sitter/web-tree-sitter.wasm'), join(out, 'web-tree-sitter.wasm'));
for (const dir of TEXT_ASSETS) for (const f of readdirSync(join(root, dir))) if (f.endsWith('.txt')) cpSync(join(root, dir, f), join(out, f));
cpSync(join(root, 'src/repo/map/queries'), join(out, 'queries'), { recursive: true });
// REDLINE_BUILD_METAFILE=path: esbuild's metafile, to see which module pulls what into a chunk.
if (process.env.REDLINE_BUILD_METAFILE) writeFileSync(process.env.REDLINE_BUILD_METAFILE, JSON.stringify(result.metafile));
