import { z } from 'zod';
import type { FileTags } from '../../repo/map/types.js';
import { describeSymbol, enclosingDefinition } from '../../repo/map/enclosing.js';
import { loadDescription, type Tool, type ToolResult } from '../tools/tool.js';
import { printable } from '../tools/truncate.js';
import { SYMBOLS_MAX_DEFS, SYMBOLS_MAX_REFS } from './bounds.js';

const parameters = z.object({
  name: z
    .string()
    .min(1, 'name must not be empty')
    .max(200)
    .regex(/^[\p{L}_$][\p{L}\p{N}_$]*$/u, 'name must be one identifier (letters, digits, _ or $), e.g. "parseConfig"')
    .describe('An identifier exactly as written in code, e.g. "parseConfig".'),
  kind: z.enum(['definitions', 'references', 'both']).optional().describe('What to list. Default "both".'),
});

/**
 * symbols: definitions and references of a name, from the tree-sitter tags the repo map was built
 * from. Read-only and in memory: it never touches the disk, so it cannot leave the workspace.
 */
export function symbolsTool(tags: ReadonlyMap<string, FileTags>): Tool<typeof parameters> {
  return {
    id: 'symbols',
    description: loadDescription(new URL('./symbols.txt', import.meta.url)),
    parameters,
    async execute(args): Promise<ToolResult> {
      const kind = args.kind ?? 'both';
      const defs: string[] = [];
      const refs = new Map<string, number[]>();
      let refCount = 0;
      for (const [file, t] of tags) {
        if (kind !== 'references')
          for (const d of t.defs) if (d.name === args.name) defs.push(`${printable(file)}:${d.line}  ${d.signature}${d.container ? `  (in ${d.container})` : ''}`);
        if (kind !== 'definitions')
          for (const r of t.refs) {
            if (r.name !== args.name) continue;
            const list = refs.get(file) ?? [];
            if (!list.includes(r.line)) (list.push(r.line), refCount++);
            refs.set(file, list);
          }
      }
      const out: string[] = [];
      if (kind !== 'references') {
        out.push(defs.length ? `Definitions of ${args.name} (${defs.length}):` : `No definition of ${args.name} in the index.`);
        out.push(...defs.sort().slice(0, SYMBOLS_MAX_DEFS).map((d) => `  ${d}`));
        if (defs.length > SYMBOLS_MAX_DEFS) out.push(`  (${defs.length - SYMBOLS_MAX_DEFS} more not shown)`);
      }
      if (kind !== 'definitions') {
        out.push(refCount ? `References to ${args.name} (${refCount} lines in ${refs.size} files):` : `No references to ${args.name} in the index.`);
        let shown = 0;
        for (const file of [...refs.keys()].sort()) {
          if (shown >= SYMBOLS_MAX_REFS) break;
          const lines = refs.get(file)!.sort((a, b) => a - b).slice(0, SYMBOLS_MAX_REFS - shown);
          shown += lines.length;
          const where = enclosingDefinition(tags.get(file), lines[0]!);
          out.push(`  ${printable(file)}: ${lines.join(', ')}${where ? `  (first in ${describeSymbol(where)})` : ''}`);
        }
        if (refCount > shown) out.push(`  (${refCount - shown} more reference lines not shown: use grep with path set to a folder to narrow)`);
      }
      if (!defs.length && !refCount) out.push('The name may still appear in text the index does not cover: try grep.');
      return { title: `symbols ${args.name}`, output: out.join('\n'), metadata: { truncated: defs.length > SYMBOLS_MAX_DEFS || refCount > SYMBOLS_MAX_REFS, definitions: defs.length, references: refCount } };
    },
  };
}
