import type { LogLine, Signal } from '../types.js';
import { MATCHERS, type Matcher } from './matchers/index.js';
import { extractIdentifiers } from './identifiers.js';
import { withoutTaskPrefix } from './task-prefix.js';
import { MAX_SIGNALS } from '../limits.js';

export interface ExtractResult {
  signals: Signal[];
  /** Which matchers recognised something (for the trace and the stats). */
  tools: string[];
}

/**
 * Runs every matcher over the lines, then adds high-entropy identifiers when no matcher located
 * anything. A matcher that throws is a bug in that matcher, not a reason to fail the diagnosis: it is
 * skipped and named in `failedMatchers`.
 */
export function extractSignals(lines: readonly LogLine[], matchers: readonly Matcher[] = MATCHERS): ExtractResult & { failedMatchers: string[] } {
  const signals: Signal[] = [];
  const tools = new Set<string>();
  const failedMatchers: string[] = [];
  // The tools' matchers read what a tool printed under Ant without Ant's task column; Ant's own reads it.
  const unwrapped = withoutTaskPrefix(lines);
  for (const m of matchers) {
    let found: Signal[];
    try {
      found = m.extract(m.readsTaskPrefix ? lines : unwrapped);
    } catch {
      failedMatchers.push(m.id);
      continue;
    }
    if (found.length) tools.add(m.id);
    for (const s of found) signals.push(s);
  }
  signals.sort((a, b) => a.logLine - b.logLine || b.weight - a.weight);
  const located = signals.some((s) => s.path && s.kind !== 'frame');
  if (!located) signals.push(...extractIdentifiers(lines.slice(-400)));
  // A log with 10,000 lint errors: keep the strongest, earliest first within a weight.
  const kept = signals.length > MAX_SIGNALS ? [...signals].sort((a, b) => b.weight - a.weight).slice(0, MAX_SIGNALS).sort((a, b) => a.logLine - b.logLine) : signals;
  return { signals: kept, tools: [...tools], failedMatchers };
}
