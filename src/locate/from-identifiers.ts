import type { Signal } from '../types.js';
import type { Candidate } from './candidate.js';
import { countFilesContaining } from '../repo/ripgrep.js';
import { findFirstInRepo } from './find-in-repo.js';
import type { Workspace } from '../repo/workspace.js';
import { isChangedLine, type PrDiff } from '../repo/diff.js';
import { MAX_IDENTIFIER_LOOKUPS } from '../limits.js';

/**
 * The fallback when no matcher located anything: identifiers from the failure that are rare in the repo
 * (ripgrep counts) point at the few files that define or use them. A name found in one file is a lead;
 * one found in fifty is noise and scores nothing.
 */
export async function candidatesFromIdentifiers(signals: readonly Signal[], ws: Workspace, diff: PrDiff | undefined): Promise<Candidate[]> {
  const ids = signals.filter((s) => s.kind === 'identifier' && s.symbol).slice(0, MAX_IDENTIFIER_LOOKUPS);
  if (!ids.length) return [];
  const counts = await countFilesContaining(ws.root, ids.map((s) => s.symbol!));
  const out: Candidate[] = [];
  for (const s of ids) {
    const n = counts.get(s.symbol!) ?? 0;
    if (n === 0 || n > 3) continue;
    const hits = await findFirstInRepo(ws, s.symbol!, 5);
    for (const h of hits) {
      const changed = isChangedLine(diff, h.file, h.line);
      out.push({
        file: h.file,
        line: h.line,
        cause: 'identifier',
        score: s.weight * (1 / n) + (changed ? 0.3 : 0),
        message: `\`${s.symbol}\` from the log appears here${n === 1 ? ' (the only file that has it)' : ''}`,
        symbol: s.symbol,
        signals: [s],
        notes: [`${s.symbol} is in ${n} file(s) of the repo`],
        mapped: 'search',
      });
    }
  }
  return out;
}
