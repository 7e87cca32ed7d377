import type { LogLine, Signal } from '../../types.js';
import type { Matcher } from './matcher.js';

const MAX_LINE = 2000;
/** Diagnostics read per log: one undeclared name can fan out over a whole module. */
const MAX_DIAGNOSTICS = 100;
/** Lines between the location and its `Error:`: a blank, up to two source excerpts with their markers. */
const MAX_GAP = 8;
// GCC Fortran puts the location alone on its line, then the excerpt, then the verdict on a line of its own:
//   foo_mod.f90:17:8:
//   <blank>
//      17 |   do idx = 1, size(x)
//         |        1
//   Error: Symbol ‘idx’ at (1) has no IMPLICIT type
const LOCATION = /^(\S.*?\.(?:f|for|ftn|f77|f90|f95|f03|f08|F|FOR|F90|F95|F03|F08)):(\d+):(\d+):$/;
const VERDICT = /^(Fatal Error|Error|Warning): (.+)$/;

/** Reads gfortran's diagnostics (`file.f90:L:C:` alone on a line, the excerpt, then `Error: …`). */
export const gfortranMatcher: Matcher = {
  id: 'gfortran',
  extract(lines: readonly LogLine[]): Signal[] {
    const out: Signal[] = [];
    for (let i = 0; i < lines.length && out.length < MAX_DIAGNOSTICS; i++) {
      const text = lines[i]!.text;
      if (text.length > MAX_LINE || !text.endsWith(':')) continue;
      const loc = LOCATION.exec(text);
      if (!loc) continue;
      const related: number[] = [];
      for (let j = i + 1; j < lines.length && j - i <= MAX_GAP; j++) {
        const t = lines[j]!.text;
        if (LOCATION.test(t)) break;
        related.push(lines[j]!.n);
        const v = VERDICT.exec(t);
        if (!v) continue;
        const warning = v[1] === 'Warning';
        out.push({ kind: 'diagnostic', path: loc[1]!, line: Number(loc[2]), column: Number(loc[3]), message: v[2]!.trim(),
          tool: 'gfortran', severity: warning ? 'warning' : 'error', category: 'compile', weight: warning ? 0.3 : 1,
          logLine: lines[i]!.n, related });
        i = j;
        break;
      }
    }
    return out;
  },
};
