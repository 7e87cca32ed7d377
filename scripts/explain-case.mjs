// Prints a fixture case's trace: signals and ranked candidates with scores, notes and checks.
import { evaluateCase } from './eval-cases.mjs';
import { diagnoseWithTrace } from '../dist/diagnose.js';
const r = await evaluateCase(process.argv[2], diagnoseWithTrace);
console.log('category', r.diagnosis.category, 'step', JSON.stringify(r.diagnosis.failingStep), 'tools', r.trace.tools.join(','));
for (const s of r.trace.signals.slice(0, 25)) console.log('  sig', s.kind, s.tool, s.category ?? '', `${s.path ?? ''}:${s.line ?? ''}`, s.weight.toFixed(2), s.symbol ?? '', '|', s.message.slice(0, 90));
for (const c of r.trace.candidates.slice(0, 8)) console.log('  cand', `${c.file}:${c.line}`, c.cause, c.score.toFixed(2), c.confidence.toFixed(2), c.depth ?? '', '|', c.notes.join('; '));
