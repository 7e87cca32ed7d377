#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import * as nodeModule from 'node:module';

// Node ≥ 22.1 keeps V8's compiled code of the bundle's chunks in a cache folder (os.tmpdir()/node-compile-cache,
// or NODE_COMPILE_CACHE; NODE_DISABLE_COMPILE_CACHE=1 turns it off), so a run after the first skips most of
// the parsing and compiling. Node checks each entry against the source's hash and ignores a stale or corrupt
// one, and an unwritable folder only means no cache; Node 20 has no such API and compiles every time.
// Enabled before the CLI is imported: only modules loaded after this call use it.
(nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();

const { runCli } = await import('../doors/cli.js');
const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
const code = await runCli(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, version: pkg.version });
process.exitCode = code;
