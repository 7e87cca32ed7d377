import type { LogLine, Signal } from '../../types.js';
import type { Matcher } from './matcher.js';

const MAX_LINE = 2000;
/** Lines of one diagnostic kept as related: the source excerpt, the values and the detail paragraphs. */
const MAX_BLOCK = 20;
/** Diagnostics read per log: a broken variable can fan out into hundreds of identical ones. */
const MAX_DIAGNOSTICS = 50;
// Terraform draws each diagnostic in a box (`╷`, `│ ` before every line, `╵`) when colour is on, and
// prints it bare with -no-color: `Error: Summary`, blank, `  on main.tf line 151, in locals:`, ` 151: code`.
const BOX = /^[│|] ?/;
const HEADER = /^(Error|Warning): (\S.*)$/;
const ON = /^\s+on (\S.*?) line (\d+)(?:, in (.+?))?:$/;
// Summaries that say the configuration could not be fetched rather than that it is wrong.
const DEPENDENCY = /^(?:Failed to (?:query|install|download|resolve) |Module not installed|Failed to (?:read|load) module|Inconsistent dependency lock file|Incompatible provider version|Required plugins are not installed|Could not load plugin)/;
/** A warning does not fail `validate` or `plan`; it is context for the error beside it. */
const WARNING_WEIGHT = 0.3;

/** Reads Terraform's diagnostics (`terraform validate`, `plan`, `apply`, `init`), boxed or -no-color, pinned to their `on file line N`. */
export const terraformMatcher: Matcher = {
  id: 'terraform',
  extract(lines: readonly LogLine[]): Signal[] {
    const out: Signal[] = [];
    for (let i = 0; i < lines.length && out.length < MAX_DIAGNOSTICS; i++) {
      const raw = lines[i]!.text;
      if (raw.length > MAX_LINE || !(raw.includes('Error: ') || raw.includes('Warning: '))) continue;
      const boxed = BOX.test(raw);
      const h = HEADER.exec(raw.replace(BOX, ''));
      if (!h) continue;
      const related: number[] = [];
      let on: RegExpExecArray | null = null;
      let detail: string | undefined;
      let blanks = 0;
      let j = i + 1;
      for (; j < lines.length && j - i <= MAX_BLOCK; j++) {
        const t = lines[j]!.text;
        if (boxed && !BOX.test(t)) break; // `╵` closes a box
        const body = boxed ? t.replace(BOX, '') : t;
        if (HEADER.test(body)) break;
        // A bare block has one blank line between its parts; two end it.
        if (body.trim() === '') {
          if (!boxed && ++blanks >= 2) break;
          continue;
        }
        blanks = 0;
        related.push(lines[j]!.n);
        const o: RegExpExecArray | null = on ? null : ON.exec(body);
        if (o) {
          on = o;
          continue;
        }
        // The excerpt (` 151: code`) and the values under it are indented; the first bare line is the detail.
        if (detail === undefined && !/^\s/.test(body)) detail = body.trim();
      }
      const warning = h[1] === 'Warning';
      const summary = h[2]!.trim();
      // A bare `Error: …` with no box, no `on file line N` and no Terraform wording is many tools' message
      // (gfortran's, Node's, a shell's), not Terraform's: claiming it would hide that tool's own location.
      if (!boxed && !on && !DEPENDENCY.test(summary)) continue;
      const s: Signal = { kind: 'diagnostic', message: detail ? `${summary}: ${detail}` : summary, tool: 'terraform',
        severity: warning ? 'warning' : 'error', category: DEPENDENCY.test(summary) ? 'dependency' : 'compile',
        weight: warning ? WARNING_WEIGHT : on ? 1 : 0.6, logLine: lines[i]!.n, related };
      if (on) Object.assign(s, { path: on[1]!, line: Number(on[2]) });
      if (on?.[3]) s.symbol = on[3];
      out.push(s);
      i = j - 1;
    }
    return out;
  },
};
