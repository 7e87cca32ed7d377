#!/usr/bin/env node
import { existsSync, readFileSync } from 'node:fs';
import * as nodeModule from 'node:module';
import { fileURLToPath } from 'node:url';
import * as vm from 'node:vm';
import { codeCacheDirs, loadWithCodeCache } from './code-cache.js';

type Cli = typeof import('../doors/cli.js');

/**
 * The CommonJS build of the CLI that scripts/build-cli.mjs writes beside this file, and its content
 * hash; defined by esbuild when it bundles this entry (tsc's own dist/bin/redline.js has neither).
 */
declare const __REDLINE_CJS_BUNDLE__: { file: string; hash: string } | undefined;
const cjsBundle = typeof __REDLINE_CJS_BUNDLE__ === 'undefined' ? undefined : __REDLINE_CJS_BUNDLE__;

/** The flags that change which code a diagnosis runs: a cache file records the kinds of run it has seen. */
const KIND_FLAGS = ['--repo', '--base', '--llm', '--passing-log', '--artifacts'];

// Node ≥ 22.1 keeps V8's compiled code of the bundle's chunks in a cache folder (os.tmpdir()/node-compile-cache,
// or NODE_COMPILE_CACHE; NODE_DISABLE_COMPILE_CACHE=1 turns it off), so a run after the first skips most of
// the parsing and compiling. Node checks each entry against the source's hash and ignores a stale or corrupt
// one, and an unwritable folder only means no cache. Used by the commands other than `diagnose` (below).
// Enabled before the CLI is imported: only modules loaded after this call use it.
const nodeCache = (nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache;
nodeCache?.();

const argv = process.argv.slice(2);
const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
const cached = diagnoseWithCodeCache();
const cli: Cli = cached ? cached.exports : await import('../doors/cli.js');
const code = await cli.runCli(argv, { stdout: process.stdout, stderr: process.stderr, version: pkg.version });
process.exitCode = code;
cached?.save();

/**
 * `diagnose` (the command whose start-up counts, run once per failed job) loads the CommonJS build through
 * V8's code cache (./code-cache.ts) on every Node: its bytes are written after a run and hold every function
 * the run compiled, where Node ≥ 22's compile cache writes a chunk's bytes before it runs, so a Node 24
 * diagnosis still compiled most of its code (issue 12: 0.27 → 0.22 s of CPU for a 76-line log). Needs
 * `require()` of ES modules (Node ≥ 20.19: the bundle requires its dependencies) and vm's default loader
 * (≥ 20.12); elsewhere, and for the other commands, the ES module chunks load as usual.
 */
function diagnoseWithCodeCache(): ReturnType<typeof loadWithCodeCache<Cli>> | undefined {
  if (argv[0] !== 'diagnose' || !cjsBundle) return undefined;
  if (!(process.features as { require_module?: boolean }).require_module || !vm.constants?.USE_MAIN_CONTEXT_DEFAULT_LOADER) return undefined;
  const dirs = codeCacheDirs();
  const file = fileURLToPath(new URL(cjsBundle.file, import.meta.url));
  if (!dirs.length || !existsSync(file)) return undefined;
  const flags = new Set(argv.filter((a) => a.startsWith('--')).map((a) => a.split('=')[0]!));
  const at = argv.findIndex((a) => a === '--format' || a.startsWith('--format='));
  const format = at < 0 ? 'text' : argv[at]!.includes('=') ? argv[at]!.split('=')[1] : argv[at + 1];
  const kind = ['diagnose', `--format=${format}`, ...KIND_FLAGS.filter((f) => flags.has(f))].join(' ');
  return loadWithCodeCache<Cli>(file, { build: cjsBundle.hash, kind, dirs });
}
