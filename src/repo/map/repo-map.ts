import type { Definition, FileTags } from './types.js';
import { buildSymbolGraph, type SymbolGraph } from './symbol-graph.js';
import { countTokens } from './tokens.js';

export interface RepoMapOptions {
  /** Files the failure names (test file, frames, changed files): personalisation seeds. */
  focusFiles?: readonly string[];
  /** Symbols the failure names (test name words, identifiers): their defining files become seeds too. */
  focusSymbols?: readonly string[];
  /** Token budget of the rendered map. */
  tokens: number;
}

export interface RankedDefinition {
  file: string;
  def: Definition;
  rank: number;
}

export interface RepoMap {
  text: string;
  tokens: number;
  /** Definitions shown, best first. */
  shown: RankedDefinition[];
  /** Files in the map, with the tokens their lines cost. */
  files: { file: string; tokens: number }[];
  totalDefinitions: number;
  /** Set when the budget cut definitions out: how many were left out. */
  omitted: number;
}

const DAMPING = 0.85;
/** A rendered definition line never costs fewer tokens than this (`│    12: f()`). */
const MIN_TOKENS_PER_DEFINITION = 4;
const ITERATIONS = 40;
/** Total rank that may still move between iterations when the walk counts as converged. */
const CONVERGED = 1e-4;

/**
 * Ranks files by a personalised PageRank over the reference graph (file A → file B when A uses a name B
 * defines), the way Aider's repo map does: a file many important files lean on ranks high, and the seeds
 * (the failing test, its frames, the PR's files) pull the walk towards the failure.
 */
export function rankFiles(graph: SymbolGraph, seeds: ReadonlySet<string>): Map<string, number> {
  const files = [...graph.tags.keys()];
  const index = new Map(files.map((f, i) => [f, i]));
  const n = files.length;
  const out: Map<number, number>[] = files.map(() => new Map());
  for (const [file, t] of graph.tags) {
    const a = index.get(file)!;
    const counts = new Map<string, number>();
    for (const r of t.refs) counts.set(r.name, (counts.get(r.name) ?? 0) + 1);
    for (const [name, count] of counts) {
      const sites = graph.definers.get(name);
      if (!sites || sites.length > 20) continue;
      // Long, specific names link more than short generic ones; many definers dilute each link.
      const specific = /[a-z][A-Z]|_/.test(name) && name.length >= 8 ? 10 : 1;
      const w = (specific * Math.sqrt(count)) / sites.length;
      for (const s of sites) {
        const b = index.get(s.file)!;
        if (b === a) continue;
        out[a]!.set(b, (out[a]!.get(b) ?? 0) + w);
      }
    }
  }
  const personal = new Float64Array(n);
  const seedIdx = [...seeds].map((s) => index.get(s)).filter((i): i is number => i !== undefined);
  if (seedIdx.length) for (const i of seedIdx) personal[i] = 1 / seedIdx.length;
  else personal.fill(1 / Math.max(1, n));
  let rank = Float64Array.from(personal);
  // Compressed rows: the walk below touches every edge 40 times, Maps would cost more than the math.
  const start = new Int32Array(n + 1);
  for (let a = 0; a < n; a++) start[a + 1] = start[a]! + out[a]!.size;
  const to = new Int32Array(start[n]!);
  const share = new Float64Array(start[n]!);
  for (let a = 0; a < n; a++) {
    let total = 0;
    for (const w of out[a]!.values()) total += w;
    let k = start[a]!;
    for (const [b, w] of out[a]!) {
      to[k] = b;
      share[k++] = w / total;
    }
  }
  for (let it = 0; it < ITERATIONS; it++) {
    const next = new Float64Array(n);
    let dangling = 0;
    for (let a = 0; a < n; a++) {
      const from = start[a]!;
      const end = start[a + 1]!;
      if (from === end) {
        dangling += rank[a]!;
        continue;
      }
      const r = DAMPING * rank[a]!;
      for (let k = from; k < end; k++) next[to[k]!] = next[to[k]!]! + r * share[k]!;
    }
    let moved = 0;
    const base = 1 - DAMPING + DAMPING * dangling;
    for (let i = 0; i < n; i++) {
      next[i] = next[i]! + base * personal[i]!;
      moved += Math.abs(next[i]! - rank[i]!);
    }
    rank = next;
    // Converged: further iterations would not change the order of anything the map shows.
    if (moved < CONVERGED) break;
  }
  return new Map(files.map((f, i) => [f, rank[i]!]));
}

/** Definitions ranked: their file's rank, shared among its definitions by how much they are used. */
export function rankDefinitions(graph: SymbolGraph, fileRank: ReadonlyMap<string, number>, focusSymbols: ReadonlySet<string>): RankedDefinition[] {
  const used = new Map<string, number>();
  for (const t of graph.tags.values()) for (const r of t.refs) used.set(r.name, (used.get(r.name) ?? 0) + 1);
  const out: RankedDefinition[] = [];
  for (const [file, t] of graph.tags) {
    const fr = fileRank.get(file) ?? 0;
    for (const def of t.defs) {
      const use = used.get(def.name) ?? 0;
      const focus = focusSymbols.has(def.name) ? 10 : 1;
      out.push({ file, def, rank: fr * (1 + Math.log1p(use)) * focus });
    }
  }
  // Plain comparisons: localeCompare over 90,000 definitions costs more than the ranking itself.
  return out.sort((a, b) => b.rank - a.rank || (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) || a.def.line - b.def.line);
}

/** Renders definitions grouped by file, in file order then line order: only signatures, never bodies. */
export function renderMap(defs: readonly RankedDefinition[]): { text: string; files: { file: string; text: string }[] } {
  const byFile = new Map<string, RankedDefinition[]>();
  for (const d of defs) byFile.set(d.file, [...(byFile.get(d.file) ?? []), d]);
  const files: { file: string; text: string }[] = [];
  for (const file of [...byFile.keys()].sort()) {
    const lines = byFile
      .get(file)!
      .sort((a, b) => a.def.line - b.def.line)
      .map((d) => `│ ${String(d.def.line).padStart(5)}: ${d.def.container && !d.def.signature.includes(d.def.container) ? '  ' : ''}${d.def.signature}`);
    files.push({ file, text: `${file}:\n${lines.join('\n')}\n` });
  }
  return { text: files.map((f) => f.text).join(''), files };
}

/**
 * The repo map: the best-ranked definitions that fit the token budget (binary search on how many), with
 * the budget respected exactly and a last line saying what was left out.
 */
export async function buildRepoMap(
  tags: ReadonlyMap<string, FileTags>,
  opts: RepoMapOptions,
  count: (text: string) => number | Promise<number> = countTokens,
): Promise<RepoMap> {
  const graph = buildSymbolGraph(tags);
  const seeds = new Set(opts.focusFiles ?? []);
  const focus = new Set(opts.focusSymbols ?? []);
  for (const s of focus) for (const site of graph.definers.get(s) ?? []) seeds.add(site.file);
  const ranked = rankDefinitions(graph, rankFiles(graph, seeds), focus);
  const fits = async (k: number) => {
    const r = renderMap(ranked.slice(0, k));
    const note = k < ranked.length ? `… ${ranked.length - k} more definitions not shown (raise --tokens or pass --focus to see others)\n` : '';
    const text = r.text + note;
    return { text, tokens: await count(text), files: r.files };
  };
  let lo = 0;
  // Every shown definition costs at least a few tokens (line number, name): no need to try more.
  let hi = Math.min(ranked.length, Math.ceil(opts.tokens / MIN_TOKENS_PER_DEFINITION));
  let best = await fits(0);
  if (best.tokens > opts.tokens) best = { text: '', tokens: 0, files: [] };
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    const r = await fits(mid);
    if (r.tokens <= opts.tokens) {
      lo = mid;
      best = r;
    } else hi = mid - 1;
  }
  return {
    text: best.text,
    tokens: best.tokens,
    shown: ranked.slice(0, lo),
    files: await Promise.all(best.files.map(async (f) => ({ file: f.file, tokens: await count(f.text) }))),
    totalDefinitions: ranked.length,
    omitted: ranked.length - lo,
  };
}
