// Runs one diagnosis in a fresh process and prints its wall time and this process's peak RSS, so the
// benchmark measures memory of exactly one run.
import { diagnoseWithTrace } from '../dist/diagnose.js';
import { createReadStream } from 'node:fs';
const [log, repo, base, viaStdin] = process.argv.slice(2);
const t0 = performance.now();
const { diagnosis } = await diagnoseWithTrace({
  log: viaStdin === 'stream' ? createReadStream(log) : log,
  ...(repo ? { repo } : {}),
  ...(base ? { base } : {}),
});
const ms = performance.now() - t0;
console.log(JSON.stringify({ ms, maxRssMB: process.resourceUsage().maxRSS / 1024, status: diagnosis.status, top: diagnosis.findings[0] ? `${diagnosis.findings[0].file}:${diagnosis.findings[0].line}` : null, lines: diagnosis.stats.lines, category: diagnosis.category, middle: diagnosis.stats.middle }));
