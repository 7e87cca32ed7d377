// Redaction's part of `npm run bench` (issue 13): the one redactor's throughput on a 100 MB log (the
// path raw.log takes: redactFile, a few MB at a time), on one 50 MB line with no line break (linear, not
// a regex blow-up), and the secret corpus (test/safety/secret-corpus.e2e.test.ts through the CLI).
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { redactFile } from '../dist/safety/redact-outgoing.js';
import { redactSecrets } from '../dist/safety/redact.js';
import { GITLEAKS_NOT_COMPILED, GITLEAKS_RULE_COUNT, GITLEAKS_RULES, GITLEAKS_VERSION } from '../dist/safety/gitleaks/rules.generated.js';
import { SECRETLINT_RULE_IDS } from '../dist/safety/secretlint-detector.js';

const OUT = 'bench-out';
const MB = 2 ** 20;
mkdirSync(OUT, { recursive: true });

// 100 MB of real log lines: every recorded fixture log, repeated.
const lines = readdirSync('fixtures/logs').flatMap((c) => {
  try {
    return readFileSync(join('fixtures/logs', c, 'log.txt'), 'utf8').split('\n');
  } catch {
    return [];
  }
});
const block = lines.join('\n') + '\n';
const big = join(OUT, 'redact-100mb.log');
writeFileSync(big, block.repeat(Math.ceil((100 * MB) / block.length)));
const size = statSync(big).size;
let t = performance.now();
await redactFile(big, big + '.out');
const fileMs = performance.now() - t;
rmSync(big, { force: true });
rmSync(big + '.out', { force: true });

// One 50 MB line: filler and keywords that make rules start an attempt (curl, key=, token) everywhere.
const hostile = 'curl -s key= token Bearer '.repeat(Math.ceil((50 * MB) / 26));
t = performance.now();
redactSecrets(hostile);
const lineMs = performance.now() - t;

console.log(`\nRedaction (gitleaks ${GITLEAKS_VERSION.version}: ${GITLEAKS_RULES.length} of ${GITLEAKS_RULE_COUNT} rules compiled` +
  `${GITLEAKS_NOT_COMPILED.length ? `, not: ${GITLEAKS_NOT_COMPILED.map((n) => n.id).join(', ')}` : ''}; secretlint preset: ${SECRETLINT_RULE_IDS.length} rules; own shapes)`);
console.log(`  ${(size / MB).toFixed(0)} MB log (real fixture lines), raw.log path  ${(fileMs / 1000).toFixed(1).padStart(6)} s  ${(size / MB / (fileMs / 1000)).toFixed(1).padStart(6)} MB/s`);
console.log(`  one 50 MB line, hostile keywords        ${(lineMs / 1000).toFixed(1).padStart(6)} s  ${(50 / (lineMs / 1000)).toFixed(1).padStart(6)} MB/s`);

// The corpus: the real test, through the CLI, in every placement and format.
const report = join(OUT, 'secret-corpus.json');
spawnSync('npx', ['vitest', 'run', 'test/safety/secret-corpus.e2e.test.ts', '--reporter=json', `--outputFile=${report}`], { stdio: 'ignore' });
try {
  const r = JSON.parse(readFileSync(report, 'utf8'));
  const tests = r.testResults.flatMap((f) => f.assertionResults);
  const seed = /seed (\d+)/.exec(tests[0]?.ancestorTitles?.[0] ?? '')?.[1];
  console.log(`  secret corpus (seed ${seed}): ${tests.filter((x) => x.status === 'passed').length} of ${tests.length} checks pass` +
    ` (${tests.filter((x) => x.status !== 'passed').map((x) => x.title.split(':')[0]).join(', ') || 'no leak in any placement'})`);
} catch (e) {
  console.log(`  secret corpus: not run (${e?.message ?? e})`);
}

