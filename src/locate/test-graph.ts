import type { Signal } from '../types.js';
import type { Candidate } from './candidate.js';
import { wordsOf } from './candidate.js';
import { reachFrom, type SymbolGraph } from '../repo/map/symbol-graph.js';
import { isTestFile } from '../repo/related-files.js';

/** Definitions reached from the test that are worth listing (the first hop is what the test exercises). */
const MAX_DEPTH = 2;
const MAX_SUGGESTED = 2;

/**
 * Without a diff there is no change to blame, but the call graph still says what the failing test
 * exercises. The definitions it reaches whose names the failure mentions (the test's title, the message,
 * the expected/actual lines) are listed below the assertion, with the chain as evidence — never above it:
 * without the PR's changes they are leads, not pins.
 */
export function candidatesFromTestGraph(graph: SymbolGraph, signals: readonly Signal[], candidates: readonly Candidate[], lineText: (n: number) => string | undefined): Candidate[] {
  const direct = candidates.filter((c) => c.cause === 'test' || (c.cause === 'frame' && isTestFile(c.file)));
  const anchor = direct[0];
  if (!anchor) return [];
  const words = new Set<string>();
  for (const s of signals) {
    if (s.kind !== 'test') continue;
    const related = (s.related ?? []).map((n) => lineText(n) ?? '').join(' ');
    for (const w of wordsOf(`${s.symbol ?? ''} ${s.message} ${related}`)) words.add(w.toLowerCase());
  }
  const leads: Candidate[] = [];
  for (const r of reachFrom(graph, { file: anchor.file, line: anchor.line }, MAX_DEPTH).values()) {
    if (isTestFile(r.site.file)) continue;
    const nameWords = r.site.def.name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase().split(/[^a-z0-9]+/).filter((w) => w.length >= 3);
    const shared = nameWords.filter((w) => words.has(w) || [...words].some((x) => x.includes(w))).length;
    if (!shared) continue;
    leads.push({
      file: r.site.file,
      line: r.site.def.line,
      endLine: r.site.def.endLine,
      cause: 'definition',
      score: anchor.score - 0.2 - 0.05 * r.depth + 0.02 * shared,
      message: `the failing test reaches \`${r.site.def.name}\` (${r.chain.map((n) => `\`${n}\``).join(' → ')}), which the failure names`,
      symbol: r.site.def.name,
      signals: [],
      notes: [`${r.chain.join(' → ')}`],
      mapped: 'search',
    });
  }
  return leads.sort((a, b) => b.score - a.score).slice(0, MAX_SUGGESTED);
}
