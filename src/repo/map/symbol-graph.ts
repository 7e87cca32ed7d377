import type { Definition, FileTags } from './types.js';

/** Where a name is defined: every (file, definition) pair that defines it. */
export interface DefSite {
  file: string;
  def: Definition;
}

export interface SymbolGraph {
  tags: ReadonlyMap<string, FileTags>;
  /** name → its definitions across the repo. */
  definers: Map<string, DefSite[]>;
}

/** Names defined in more files than this are too common to link anything (`get`, `run`, `init`). */
const MAX_DEFINERS_PER_NAME = 6;
/** Names shorter than this are loop variables and one-letter helpers, not links. */
const MIN_NAME_LENGTH = 3;

export function buildSymbolGraph(tags: ReadonlyMap<string, FileTags>): SymbolGraph {
  const definers = new Map<string, DefSite[]>();
  for (const [file, t] of tags) {
    for (const def of t.defs) {
      if (def.name.length < MIN_NAME_LENGTH) continue;
      const list = definers.get(def.name);
      if (list) list.push({ file, def });
      else definers.set(def.name, [{ file, def }]);
    }
  }
  return { tags, definers };
}

/** The definitions a name may refer to, or none when the name is too short or too common to tell. */
export function resolveName(graph: SymbolGraph, name: string, fromFile?: string): DefSite[] {
  const sites = graph.definers.get(name);
  if (!sites || name.length < MIN_NAME_LENGTH) return [];
  // A definition in the same file wins (a local helper shadows a same-named one elsewhere).
  const local = fromFile ? sites.filter((s) => s.file === fromFile) : [];
  if (local.length) return local;
  return sites.length > MAX_DEFINERS_PER_NAME ? [] : sites;
}

/** The innermost definition containing a line. */
export function definitionAt(t: FileTags | undefined, line: number): Definition | undefined {
  let best: Definition | undefined;
  for (const d of t?.defs ?? []) {
    if (d.line <= line && line <= d.endLine && (!best || d.endLine - d.line <= best.endLine - best.line)) best = d;
  }
  return best;
}

export interface Reached {
  site: DefSite;
  depth: number;
  /** The names followed from the start to here: ['listOrders', 'paginate', 'pageBounds']. */
  chain: string[];
}

const key = (s: DefSite) => `${s.file}:${s.def.line}:${s.def.name}`;

/**
 * Follows references from a start point (a failing test's function) through the definitions they name,
 * breadth first, up to `maxDepth` calls away. Returns every definition reached with its depth and the
 * chain of names that led there.
 */
export function reachFrom(graph: SymbolGraph, start: { file: string; line: number }, maxDepth = 3): Map<string, Reached> {
  const reached = new Map<string, Reached>();
  const t = graph.tags.get(start.file);
  const startDef = definitionAt(t, start.line);
  // The references inside the start definition (or, with none, the whole file, e.g. a script-style test).
  let frontier: { file: string; from: number; to: number; chain: string[] }[] = [
    { file: start.file, from: startDef?.line ?? 1, to: startDef?.endLine ?? Number.MAX_SAFE_INTEGER, chain: startDef ? [startDef.name] : [] },
  ];
  for (let depth = 1; depth <= maxDepth && frontier.length; depth++) {
    const next: typeof frontier = [];
    for (const f of frontier) {
      const refs = graph.tags.get(f.file)?.refs ?? [];
      const seenNames = new Set<string>();
      for (const r of refs) {
        if (r.line < f.from || r.line > f.to || seenNames.has(r.name)) continue;
        seenNames.add(r.name);
        for (const site of resolveName(graph, r.name, f.file)) {
          const k = key(site);
          if (reached.has(k)) continue;
          if (site.file === start.file && startDef && site.def.line === startDef.line) continue;
          const chain = [...f.chain, site.def.name];
          reached.set(k, { site, depth, chain });
          next.push({ file: site.file, from: site.def.line, to: site.def.endLine, chain });
        }
      }
    }
    frontier = next;
  }
  return reached;
}
