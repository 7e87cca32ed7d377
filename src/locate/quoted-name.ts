import type { Candidate } from './candidate.js';
import { mergeCandidates } from './candidate.js';
import { resolveName, type SymbolGraph } from '../repo/map/symbol-graph.js';
import { isTestFile } from '../repo/related-files.js';
import type { Workspace } from '../repo/workspace.js';
import { MAX_QUOTED_NAME_ANCHORS } from '../limits.js';

/**
 * How far above the failing test's line the line that spells the quoted name goes: just above it, so the
 * test's line stays the next lead. The log proves the test's line; the quoted name only says which line
 * of the code it called the error is about.
 */
const QUOTED_NAME_LIFT = 0.05;
/** A name in quotes in an error message (`'parent_object' is an invalid keyword argument`, `KeyError: 'x'`). */
const QUOTED = /(['"`])([A-Za-z_][\w]{2,})\1/g;

export const QUOTED_NAME_NOTE = 'the error quotes a name this line spells, in what the failing line called';

/**
 * A failing test's error that quotes a name its own line does not spell (`TypeError: 'parent_object' is
 * an invalid keyword argument for this function`, raised in a library the test called through a factory
 * of the project's) is about code that line called: of the definitions the failing line refers to, the
 * one whose body spells that name holds the line the error is about (the factory's `parent_object =
 * SubFactory(…)` field). That line is offered just above the test's. A name the failing line spells
 * itself is the test's own doing, and a name no referenced definition spells gives nothing.
 */
export function candidatesFromQuotedName(graph: SymbolGraph, candidates: readonly Candidate[], ws: Workspace): Candidate[] {
  const out: Candidate[] = [];
  const seen = new Set<string>();
  let anchors = 0;
  for (const anchor of mergeCandidates([...candidates])) {
    if (anchors >= MAX_QUOTED_NAME_ANCHORS) break;
    if (!(anchor.cause === 'test' || anchor.cause === 'frame') || !isTestFile(anchor.file)) continue;
    anchors++;
    const text = ws.lines(anchor.file)?.[anchor.line - 1] ?? '';
    const names = new Set<string>();
    for (const s of anchor.signals) for (const m of `${s.message}`.matchAll(QUOTED)) if (!spells(text, m[2]!)) names.add(m[2]!);
    if (!names.size) continue;
    const refs = (graph.tags.get(anchor.file)?.refs ?? []).filter((r) => r.line === anchor.line);
    for (const ref of refs) {
      for (const site of resolveName(graph, ref.name, anchor.file)) {
        if (site.file === anchor.file) continue;
        const lines = ws.lines(site.file) ?? [];
        for (let n = site.def.line; n <= Math.min(site.def.endLine, lines.length); n++) {
          const name = [...names].find((x) => spells(lines[n - 1]!, x));
          if (!name) continue;
          const key = `${site.file}:${n}`;
          if (!seen.has(key)) {
            seen.add(key);
            out.push({
              file: site.file,
              line: n,
              cause: 'definition',
              score: anchor.score + QUOTED_NAME_LIFT,
              message: `the failing test ${anchor.file}:${anchor.line} calls \`${site.def.name}\`, whose line ${n} spells \`${name}\`, the name its error quotes`,
              symbol: name,
              signals: [],
              notes: [QUOTED_NAME_NOTE],
              mapped: 'search',
            });
          }
          break;
        }
      }
    }
  }
  return out;
}

/** Whether a line spells a name as a whole word (not inside a longer identifier). */
function spells(line: string, name: string): boolean {
  return new RegExp(`(?<![\\w$])${name}(?![\\w$])`).test(line);
}
