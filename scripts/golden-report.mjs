// Prints each golden case's outcome (a developer's view of what the golden test checks).
import { listCases, evaluateCase } from './eval-cases.mjs';
import { diagnoseWithTrace } from '../dist/diagnose.js';
const only = process.argv[2];
for (const name of listCases()) {
  if (only && !name.includes(only)) continue;
  const r = await evaluateCase(name, diagnoseWithTrace);
  const top = r.diagnosis.findings.slice(0, 3).map((f) => `${f.file}:${f.line}(${f.cause},${f.confidence})`).join(' ');
  const ok = r.expected.abstain ? r.abstainOk : r.top1Line;
  console.log(`${ok ? 'OK  ' : 'MISS'} ${r.categoryOk ? '' : `[cat ${r.diagnosis.category}≠${r.expected.category}] `}${name}: ${top || r.diagnosis.status}  want ${(r.expected.accept ?? []).map((a) => `${a.file}:${a.line}`).join(',')}`);
}
