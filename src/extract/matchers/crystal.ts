import type { LogLine, Signal } from '../../types.js';
import type { Matcher } from './matcher.js';

const MAX_LINE = 2000;
/** Diagnostics read per log: Crystal stops at the first error, but `--error-trace` repeats its frames. */
const MAX_DIAGNOSTICS = 20;
/** Lines between `In file:L:C` and its `Error:`: a blank, the excerpt and its marker. */
const MAX_GAP = 8;
// Crystal's compiler names the place alone, then the excerpt, then the verdict:
//   In src/levenshtein.cr:40:23
//   <blank>
//    40 | cost = Math.minimum(…)
//                     ^------
//   Error: undefined method 'minimum' for Math:Module
// (with --error-trace, `In`/`instantiating` frames come first; the last `In` before `Error:` is the place).
const LOCATION = /^In (\S+\.cr):(\d+):(\d+)$/;
const VERDICT = /^Error: (.+)$/;

/** Reads Crystal's compile errors (`In file.cr:L:C`, the excerpt, `Error: …`). */
export const crystalMatcher: Matcher = {
  id: 'crystal',
  extract(lines: readonly LogLine[]): Signal[] {
    const out: Signal[] = [];
    for (let i = 0; i < lines.length && out.length < MAX_DIAGNOSTICS; i++) {
      const text = lines[i]!.text;
      if (text.length > MAX_LINE || !text.startsWith('In ')) continue;
      const loc = LOCATION.exec(text);
      if (!loc) continue;
      const related: number[] = [];
      for (let j = i + 1; j < lines.length && j - i <= MAX_GAP; j++) {
        const t = lines[j]!.text;
        if (LOCATION.test(t)) break;
        related.push(lines[j]!.n);
        const v = VERDICT.exec(t);
        if (!v) continue;
        out.push({ kind: 'diagnostic', path: loc[1]!, line: Number(loc[2]), column: Number(loc[3]), message: v[1]!.trim(),
          tool: 'crystal', severity: 'error', category: 'compile', weight: 1, logLine: lines[i]!.n, related });
        i = j;
        break;
      }
    }
    return out;
  },
};
