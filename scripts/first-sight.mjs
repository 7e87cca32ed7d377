// Scores the named golden cases with the PR's base and without it (top-1 line, top-1 file, category): how a
// batch of new cases is measured on first sight, before any rule is tuned to it.
import { evaluateCase, listCases } from './eval-cases.mjs';
import { diagnoseWithTrace } from '../dist/diagnose.js';

const wanted = process.argv.slice(2);
const names = listCases().filter((n) => wanted.some((w) => n.includes(w)));
const tally = { base: { line: 0, file: 0, cat: 0 }, noBase: { line: 0, file: 0, cat: 0 } };
for (const name of names) {
  const parts = [];
  for (const mode of ['base', 'noBase']) {
    const r = await evaluateCase(name, diagnoseWithTrace, mode === 'noBase' ? { noBase: true } : {});
    const top = r.diagnosis.findings[0];
    tally[mode].line += r.top1Line ? 1 : 0;
    tally[mode].file += r.top1File ? 1 : 0;
    tally[mode].cat += r.categoryOk ? 1 : 0;
    parts.push(`${mode}: ${r.top1Line ? 'LINE' : r.top1File ? 'file' : 'miss'} ${top ? `${top.file}:${top.line}` : r.diagnosis.status} [${r.diagnosis.category}]`);
  }
  console.log(`${name}\n    ${parts.join('\n    ')}`);
}
const n = names.length;
for (const mode of ['base', 'noBase']) console.log(`${mode}: line ${tally[mode].line}/${n}, file ${tally[mode].file}/${n}, category ${tally[mode].cat}/${n}`);
