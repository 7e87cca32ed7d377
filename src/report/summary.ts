import type { Diagnosis } from '../types.js';
import { pinText } from './explain.js';

/** One sentence for people: what failed, and where Redline pins it or why it does not. */
export function summarise(d: Diagnosis, ctx: { hasRepo: boolean; stepsSeen?: boolean; binary?: boolean }): string {
  const step = d.failingStep ? ` in step "${d.failingStep.name}"` : '';
  const top = d.findings[0];
  if (ctx.binary && !top) return 'The log does not decode as text (a binary or corrupted file?): nothing to read, nothing to pin. Pass the job log itself.';
  if (top) return `${cap(d.category)} failure${step}: ${pinText(top)} — ${top.message.split('\n')[0]!.slice(0, 200)}`;
  if (d.category === 'infra') return `Infrastructure failure${step} (runner, network, memory, disk or time limit): no code location to pin.`;
  if (!d.failingStep && d.category === 'unknown' && ctx.stepsSeen) return 'No step of this job reported a failure (the log may be from a passing or cancelled run): nothing to pin.';
  if (!ctx.hasRepo) return `${cap(d.category)} failure${step}: no location found in the log; pass --repo to search the checkout.`;
  return `${cap(d.category)} failure${step}: no location Redline could verify, so none is pinned.`;
}

function cap(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
