// npm run bench: accuracy over the golden fixtures, then the scale run (1 GB log, 50,000-file repo)
// against ripgrep as the reference. Prints figures; asserts nothing (tests do that).
import { execFileSync, spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync, cpSync } from 'node:fs';
import { join } from 'node:path';
import { once } from 'node:events';
import { rgPath } from '@vscode/ripgrep';
import { listCases, evaluateCase, CASES_DIR } from './eval-cases.mjs';
import { layOutCase } from './lay-out-case.mjs';
import { diagnoseWithTrace } from '../dist/diagnose.js';
import { benchShapes } from './bench-shapes.mjs';
import { benchStartup } from './bench-startup.mjs';

const OUT = new URL('../bench-out/', import.meta.url).pathname;
mkdirSync(OUT, { recursive: true });
const args = new Set(process.argv.slice(2));
const pct = (a, b) => (b ? `${((100 * a) / b).toFixed(0)}%`.padStart(5) : '    -');
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s.length ? s[Math.floor(s.length / 2)] : 0; };

// --startup: only the start-up figures (scripts/bench-startup.mjs).
if (args.has('--startup')) {
  writeFileSync(join(OUT, 'startup.json'), JSON.stringify(await benchStartup(), null, 2));
  process.exit(0);
}

// --shapes: only the log shapes (generated huge logs, scripts/bench-shapes.mjs); --shapes=1,5 some of them.
const shapesArg = process.argv.slice(2).find((a) => a === '--shapes' || a.startsWith('--shapes='));
if (shapesArg) {
  const { repo, base } = layOutCase(join(CASES_DIR, 'tsc-signature-change-call-site'));
  const only = shapesArg.includes('=') ? new Set(shapesArg.split('=')[1].split(',').map(Number)) : undefined;
  const rows = await benchShapes({ repo, base, only });
  writeFileSync(join(OUT, 'shapes.json'), JSON.stringify(rows, null, 2));
  rmSync(repo, { recursive: true, force: true });
  process.exit(0);
}

// ── 1. Accuracy over the golden fixtures ──
async function accuracy(noBase, noGraph = false) {
  const rows = [];
  for (const name of listCases()) rows.push(await evaluateCase(name, diagnoseWithTrace, { noBase, noGraph }));
  return rows;
}
function table(rows, title) {
  console.log(`\n${title}`);
  console.log('category     cases  top-1 line  top-1 file  top-3 line  abstain(infra)  category ok');
  const cats = ['compile', 'lint', 'dependency', 'test', 'infra'];
  const line = (label, sel) => {
    const pin = sel.filter((r) => !r.expected.abstain);
    const inf = sel.filter((r) => r.expected.abstain);
    console.log(
      `${label.padEnd(12)} ${String(sel.length).padStart(5)}  ${pct(pin.filter((r) => r.top1Line).length, pin.length).padStart(10)}  ${pct(pin.filter((r) => r.top1File).length, pin.length).padStart(10)}  ${pct(pin.filter((r) => r.top3Line).length, pin.length).padStart(10)}  ${pct(inf.filter((r) => r.abstainOk).length, inf.length).padStart(14)}  ${pct(sel.filter((r) => r.categoryOk).length, sel.length).padStart(11)}`,
    );
  };
  for (const c of cats) line(c, rows.filter((r) => r.expected.category === c));
  line('overall', rows);
  const ms = rows.map((r) => r.ms);
  console.log(`time per case: median ${median(ms).toFixed(0)} ms, max ${Math.max(...ms).toFixed(0)} ms (includes listing the repo and git diff)`);
}

const withBase = await accuracy(false);
table(withBase, `Golden fixtures (${withBase.length} recorded cases), with --base (the PR diff as prior)`);
if (!args.has('--quick')) {
  const noBase = await accuracy(true);
  table(noBase, 'Same fixtures without --base (no diff prior), for comparison');
}
{
  // The call graph's gain on test failures, side by side on the same fixtures.
  const noGraph = await accuracy(false, true);
  const t = (rows) => { const sel = rows.filter((r) => r.expected.category === 'test' && !r.expected.abstain); return `${sel.filter((r) => r.top1Line).length}/${sel.length} = ${pct(sel.filter((r) => r.top1Line).length, sel.length).trim()}`; };
  const g = (rows) => { const sel = rows.filter((r) => /-graph-/.test(r.name)); return sel.length ? `${sel.filter((r) => r.top1Line).length}/${sel.length} = ${pct(sel.filter((r) => r.top1Line).length, sel.length).trim()}` : '-'; };
  console.log(`\nTest failures, top-1 line:   with the call graph ${t(withBase)}   without ${t(noGraph)}`);
  console.log(`  the *-graph-* cases only:  with the call graph ${g(withBase)}   without ${g(noGraph)}`);
  // Without a diff the graph can only offer leads below the assertion: measure them as top-3 file hits.
  const f3 = (rows) => { const sel = rows.filter((r) => r.expected.category === 'test'); const k = sel.filter((r) => r.diagnosis.findings.slice(0, 3).some((f) => r.expected.accept.some((a) => a.file === f.file))).length; return `${k}/${sel.length}`; };
  const nb = await accuracy(true, false);
  const nbNoGraph = await accuracy(true, true);
  console.log(`Without --base, test failures, top-3 file: with the call graph's leads ${f3(nb)}   without ${f3(nbNoGraph)}`);
}
const misses = withBase.filter((r) => !r.expected.abstain && !r.top1Line).map((r) => r.name);
console.log(`misses (top-1 line): ${misses.join(', ') || 'none'}`);

// ── 1b. The development corpus of real logs of public projects (fixtures/wild/, no repository) ──
{
  const { benchWild } = await import('./bench-wild.mjs');
  await benchWild();
}

// ── 1c. Real failures of real projects on their upstream trees (fixtures/real-pins/; skipped when the mirrors are not here) ──
{
  const { benchPins } = await import('./bench-pins.mjs');
  console.log('');
  benchPins();
}

// ── LLM mode (guarded: the bench still runs when the agent is not built or fails) ──
async function llmSection(withBig) {
  try {
    const { benchLlm } = await import('./bench-llm.mjs');
    const big = join(OUT, 'big-1gb.log');
    await benchLlm({ listCases, CASES_DIR, layOutCase, bigLog: withBig && existsSync(big) ? big : undefined, bigCase: join(CASES_DIR, 'tsc-signature-change-call-site') });
  } catch (e) {
    console.log(`\nLLM mode section skipped: ${e?.message ?? e}`);
  }
}

// ── The committed Action: its size, part by part, and one run on Node 24 (scripts/bench-action.mjs) ──
try {
  await (await import('./bench-action.mjs')).benchAction();
} catch (e) {
  console.log(`\nAction section skipped: ${e?.message ?? e}`);
}

if (args.has('--no-scale')) {
  await llmSection(false);
  process.exit(0);
}

// ── 2. Scale: a generated 1 GB GitHub Actions log whose last step is a real recorded failure ──
const CASE = join(CASES_DIR, 'tsc-signature-change-call-site');
const bigLog = join(OUT, 'big-1gb.log');
const TARGET = 1024 * 1024 * 1024;
if (!existsSync(bigLog) || statSync(bigLog).size < TARGET) {
  console.log('\ngenerating a 1 GB log (once; kept in bench-out/)…');
  const ws = createWriteStream(bigLog);
  const words = 'resolving fetching compiling linking module package artifact downloading cache restore step task worker shard'.split(' ');
  let t = Date.parse('2026-11-29T10:00:00Z');
  const block = [];
  for (let i = 0; i < 8000; i++) {
    const w = Array.from({ length: 4 + (i % 11) }, (_, k) => words[(i * 7 + k * 3) % words.length]).join(' ');
    let l = `${w} ${i} ${(i * 2654435761) % 100000}`;
    if (i % 997 === 0) l = `warning: deprecated option --legacy-peer-deps used by package ${i} (not an error)`;
    block.push(l);
  }
  ws.write(`2026-11-29T10:00:00.0000000Z ##[group]Run npm run build:all\n`);
  let written = 0;
  while (written < TARGET) {
    const stamp = new Date((t += 1000)).toISOString().replace('Z', '0000Z');
    const chunk = block.map((l) => `${stamp} ${l}`).join('\n') + '\n';
    written += chunk.length;
    if (!ws.write(chunk)) await once(ws, 'drain');
  }
  ws.write(`2026-11-29T11:00:00.0000000Z ##[endgroup]\n`);
  ws.write(readFileSync(join(CASE, 'log.txt')));
  ws.end();
  await once(ws, 'finish');
}
const size = statSync(bigLog).size;
const { repo, base } = layOutCase(CASE);
const time = (cmd, argv) => { const t0 = performance.now(); const r = spawnSync(cmd, argv, { stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 << 20 }); return { ms: performance.now() - t0, out: r.stdout.toString() }; };
const best = (f, n = 3) => { const rs = Array.from({ length: n }, f); return rs.sort((a, b) => a.ms - b.ms)[0]; };
time(rgPath, ['-c', 'error', bigLog]); // warm the page cache
const rg = best(() => time(rgPath, ['--no-config', '-c', 'error', bigLog]));
const rgNoMmap = best(() => time(rgPath, ['--no-config', '--no-mmap', '-c', 'error', bigLog]));
const child = (log, mode) => JSON.parse(time(process.execPath, [new URL('./bench-child.mjs', import.meta.url).pathname, log, repo, base, mode ?? '']).out);
const fast = best(() => { const r = child(bigLog); return { ...r, ms: r.ms }; }, 3);
const streamed = child(bigLog, 'stream');
console.log(`\nScale: ${(size / 2 ** 20).toFixed(0)} MB log, ${fast.lines.toLocaleString()} lines; reference rg -c error`);
console.log(`  rg -c error (mmap)            ${rg.ms.toFixed(0).padStart(6)} ms  ${(size / 2 ** 20 / (rg.ms / 1000)).toFixed(0).padStart(6)} MB/s`);
console.log(`  rg -c error --no-mmap         ${rgNoMmap.ms.toFixed(0).padStart(6)} ms  ${(size / 2 ** 20 / (rgNoMmap.ms / 1000)).toFixed(0).padStart(6)} MB/s`);
console.log(`  redline (file: rg prefilter)  ${fast.ms.toFixed(0).padStart(6)} ms  ${(size / 2 ** 20 / (fast.ms / 1000)).toFixed(0).padStart(6)} MB/s  peak RSS ${fast.maxRssMB.toFixed(0)} MB  ${(fast.ms / rg.ms).toFixed(1)}x rg (${(fast.ms / rgNoMmap.ms).toFixed(1)}x --no-mmap)  pin ${fast.top}`);
console.log(`  redline (stream: JS scanner)  ${streamed.ms.toFixed(0).padStart(6)} ms  ${(size / 2 ** 20 / (streamed.ms / 1000)).toFixed(0).padStart(6)} MB/s  peak RSS ${streamed.maxRssMB.toFixed(0)} MB  ${(streamed.ms / rg.ms).toFixed(1)}x rg  pin ${streamed.top}`);

// ── 3. Scale: a generated 50,000-file repository around the real case ──
const bigRepo = join(OUT, 'repo-50k');
if (!existsSync(join(bigRepo, '.generated'))) {
  console.log('generating a 50,000-file repo (once)…');
  rmSync(bigRepo, { recursive: true, force: true });
  for (let i = 0; i < 50_000; i++) {
    const dir = join(bigRepo, 'packages', `pkg${i % 200}`, 'src', `mod${i % 17}`);
    if (i < 200 * 17) mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `file${i}.ts`), `export const value${i} = ${i};\nexport function fn${i}(x: number) {\n  return x + value${i};\n}\n`);
  }
  writeFileSync(join(bigRepo, '.generated'), '');
}
cpSync(join(repo, 'src'), join(bigRepo, 'src'), { recursive: true });
const rgFiles = best(() => time(rgPath, ['--no-config', '--files', bigRepo]));
const onRepo = best(() => JSON.parse(time(process.execPath, [new URL('./bench-child.mjs', import.meta.url).pathname, join(CASE, 'log.txt'), bigRepo]).out), 3);
console.log(`\nScale: 50,000-file repo`);
console.log(`  rg --files                    ${rgFiles.ms.toFixed(0).padStart(6)} ms`);
console.log(`  redline diagnose --repo       ${onRepo.ms.toFixed(0).padStart(6)} ms  peak RSS ${onRepo.maxRssMB.toFixed(0)} MB  pin ${onRepo.top}`);

// ── 3a. Start-up: the fixed cost per run (`--help`, a tiny diagnose with and without a checkout), Node 20 and 24 ──
writeFileSync(join(OUT, 'startup.json'), JSON.stringify(await benchStartup(), null, 2));

// ── 3b. Log shapes: dense "error", a 500 MB test output, a million failures, one 1 GB line, gzip on stdin, a repeated warning ──
writeFileSync(join(OUT, 'shapes.json'), JSON.stringify(await benchShapes({ repo, base }), null, 2));
rmSync(repo, { recursive: true, force: true });

// ── 4. The repo map: cold and warm on a generated 10,000-file repository ──
const mapRepo = join(OUT, 'repo-10k');
if (!existsSync(join(mapRepo, '.generated'))) {
  console.log('generating a 10,000-file repo for the map (once)…');
  rmSync(mapRepo, { recursive: true, force: true });
  for (let i = 0; i < 10_000; i++) {
    const dir = join(mapRepo, 'src', `area${i % 50}`);
    if (i < 50) mkdirSync(dir, { recursive: true });
    const dep = (i * 7919) % 10_000;
    const dep2 = (i * 104729) % 10_000;
    writeFileSync(
      join(dir, `module${i}.ts`),
      `import { computeValue${dep} } from '../area${dep % 50}/module${dep}';\nimport { formatRecord${dep2} } from '../area${dep2 % 50}/module${dep2}';\n\n` +
        `export interface Record${i} {\n  id: number;\n  label: string;\n}\n\n` +
        `export function computeValue${i}(input: number, scale = ${i % 7}): number {\n  const base = computeValue${dep}(input - 1);\n  return base * scale + ${i};\n}\n\n` +
        `export function formatRecord${i}(r: Record${i}): string {\n  return formatRecord${dep2}({ id: r.id, label: r.label }) + String(computeValue${i}(r.id));\n}\n\n` +
        `export class Store${i} {\n  private items: Record${i}[] = [];\n  add(r: Record${i}): void {\n    this.items.push(r);\n  }\n  total(): number {\n    return this.items.reduce((n, r) => n + computeValue${i}(r.id), 0);\n  }\n}\n`,
    );
  }
  writeFileSync(join(mapRepo, '.generated'), '');
}
const cacheDir = join(OUT, 'map-cache');
rmSync(cacheDir, { recursive: true, force: true });
const mapRun = () => {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [new URL('../dist/bin/redline.js', import.meta.url).pathname, 'map', '--repo', mapRepo, '--focus', 'src/area3/module1203.ts', '--tokens', '2048'], {
    env: { ...process.env, REDLINE_CACHE_DIR: cacheDir },
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 64 << 20,
  });
  return { ms: performance.now() - t0, stderr: r.stderr.toString().trim(), status: r.status };
};
const cold = mapRun();
const warm = best(mapRun, 3);
console.log(`\nRepo map, 10,000-file generated TypeScript repo (2 cores)`);
console.log(`  cold (empty tag cache)  ${(cold.ms / 1000).toFixed(1).padStart(6)} s   target < 20 s`);
console.log(`  warm (cached tags)      ${(warm.ms / 1000).toFixed(2).padStart(6)} s   target < 1 s`);
console.log(`  ${warm.stderr.replace(/^redline: /, '')}`);
{
  const { countTokens } = await import('../dist/repo/map/tokens.js');
  const { readdirSync } = await import('node:fs');
  let src = 0;
  for (const area of readdirSync(join(mapRepo, 'src'))) for (const f of readdirSync(join(mapRepo, 'src', area))) src += countTokens(readFileSync(join(mapRepo, 'src', area, f), 'utf8'));
  const mapTokens = Number(/in (\d+) tokens/.exec(warm.stderr)?.[1] ?? 0);
  console.log(`  map ${mapTokens} tokens vs full source ${src.toLocaleString()} tokens (${((100 * mapTokens) / src).toFixed(2)}%)`);
}

// ── 5. History (issue 15): evidence with a passing log, the lookup's requests and time, a 1 GB passing log ──
await import('./bench-history.mjs');

await llmSection(true);

await import('./bench-redact.mjs');
