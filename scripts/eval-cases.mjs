// Runs `diagnose` over the golden fixture cases and scores each against expected.json.
// Shared by test/golden.test.ts and scripts/bench.mjs so both measure the same thing.
import { readdirSync, readFileSync, existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { layOutCase } from './lay-out-case.mjs';

export const CASES_DIR = new URL('../fixtures/logs/', import.meta.url).pathname;

export function listCases(dir = CASES_DIR) {
  return readdirSync(dir)
    .filter((c) => existsSync(join(dir, c, 'expected.json')) && existsSync(join(dir, c, 'log.txt')))
    .sort();
}

/** @param diagnoseWithTrace the core function (from src or dist) */
export async function evaluateCase(name, diagnoseWithTrace, opts = {}) {
  const caseDir = join(CASES_DIR, name);
  const expected = JSON.parse(readFileSync(join(caseDir, 'expected.json'), 'utf8'));
  const { repo, base } = layOutCase(caseDir);
  try {
    const t0 = performance.now();
    const { diagnosis, trace } = await diagnoseWithTrace({
      log: join(caseDir, 'log.txt'),
      repo,
      ...(opts.noBase ? {} : { base }),
      ...(opts.noGraph ? { graph: false } : {}),
    });
    const ms = performance.now() - t0;
    const same = (f, a) => f.file === a.file && f.line === a.line;
    const accept = expected.accept ?? [];
    const top = diagnosis.findings[0];
    return {
      name,
      expected,
      diagnosis,
      trace,
      ms,
      categoryOk: diagnosis.category === expected.category,
      abstained: diagnosis.status === 'no-location',
      abstainOk: expected.abstain ? diagnosis.status === 'no-location' : diagnosis.status === 'located',
      top1Line: !!top && accept.some((a) => same(top, a)),
      top1File: !!top && accept.some((a) => a.file === top.file),
      top3Line: diagnosis.findings.slice(0, 3).some((f) => accept.some((a) => same(f, a))),
    };
  } finally {
    rmSync(repo, { recursive: true, force: true });
  }
}
