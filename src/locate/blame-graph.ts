import type { Candidate } from './candidate.js';
import type { Workspace } from '../repo/workspace.js';
import type { PrDiff } from '../repo/diff.js';
import { importsOf } from '../repo/related-files.js';
import { codeFiles } from '../repo/map/code-files.js';
import { tagsForFiles } from '../repo/map/tags.js';
import { buildSymbolGraph, type SymbolGraph } from '../repo/map/symbol-graph.js';
import { MAX_GRAPH_FILES } from '../limits.js';

/**
 * The symbol graph for blaming a test failure on the change. A normal checkout is tagged whole (cached
 * on disk by content, so a second run is cheap); a monorepo past MAX_GRAPH_FILES only around the failure:
 * the files the log names, what they import two levels deep, and the PR's files.
 */
export async function symbolGraphFor(ws: Workspace, diff: PrDiff, candidates: readonly Candidate[]): Promise<SymbolGraph> {
  const all = codeFiles(ws);
  let files = all;
  if (all.length > MAX_GRAPH_FILES) {
    const near = new Set<string>(candidates.map((c) => c.file));
    for (const f of diff.files) if (ws.fileSet.has(f.file)) near.add(f.file);
    let frontier = [...near];
    for (let d = 0; d < 2; d++) {
      const next: string[] = [];
      for (const f of frontier) for (const g of importsOf(ws, f)) if (!near.has(g)) (near.add(g), next.push(g));
      frontier = next;
    }
    files = [...near];
  }
  return buildSymbolGraph(await tagsForFiles(ws, files));
}
