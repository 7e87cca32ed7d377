import type { Definition, FileTags } from './types.js';

/**
 * The innermost definition whose line range holds `line` (1-based), or undefined when the line is
 * outside every definition. Innermost is the shortest range; on a tie, the one that starts later.
 */
export function enclosingDefinition(tags: Pick<FileTags, 'defs'> | undefined, line: number): Definition | undefined {
  let best: Definition | undefined;
  for (const d of tags?.defs ?? []) {
    if (line < d.line || line > d.endLine) continue;
    if (!best) best = d;
    else {
      const span = d.endLine - d.line;
      const bestSpan = best.endLine - best.line;
      if (span < bestSpan || (span === bestSpan && d.line > best.line)) best = d;
    }
  }
  return best;
}

/** How a definition is named to a person: `Parser.parseHeader()`, `splitLine()`, `Header`. */
export function describeSymbol(def: Pick<Definition, 'name' | 'kind' | 'container'>): string {
  const call = def.kind === 'function' || def.kind === 'method' ? '()' : '';
  return `${def.container ? `${def.container}.` : ''}${def.name}${call}`;
}
