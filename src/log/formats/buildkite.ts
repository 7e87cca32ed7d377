import { countLines, type CiFormatModule, type FormatInput, type Step, type StepKind } from './step.js';

/** The agent's per-line timestamp, `\x1b_bk;t=1600000000000\x07`, once cleanLine dropped ESC and BEL. */
const BK_TIME = /^_?bk;t=\d+/;
/** A group header; `--- a/file` / `+++ b/file` are a diff's, which tests print too. */
const GROUP = /^(---|\+\+\+|~~~) (?![ab]\/|\/|\S+\t)(.*)$/;
const EXPAND = /^\^\^\^ \+\+\+$/;
const EXIT = /^🚨 Error: The command exited with status (-?\d+)$/;
/** What only the Buildkite agent prints: `---`/`+++` alone are also diff headers in test output. */
const AGENT = /^(?:~~~ |\^\^\^ \+\+\+$|🚨 Error: The command exited with status |Running global (?:environment|pre-exit|pre-checkout|pre-command|post-command) hook|Preparing working directory$|_?bk;t=\d)/;
const SETUP = /(?:environment|pre-checkout|checkout|post-checkout|pre-command) hook|^Preparing working directory$|^Setting up plugins$|^Setting up the environment$|^Fetching .*plugin/i;
const POST = /(?:post-command|pre-exit|pre-artifact|post-artifact) hook|^Uploading artifacts$/i;

/** The line without the agent's timestamp; only a line starting `_bk;` or `bk;` can have one (cheap first test). */
const text = (raw: string) => (raw.startsWith('_bk;') || raw.startsWith('bk;') ? raw.replace(BK_TIME, '') : raw);

function kindOf(name: string): StepKind {
  if (POST.test(name)) return 'post';
  return SETUP.test(name) ? 'setup' : 'user';
}

/**
 * Buildkite job logs: `--- name` (collapsed), `+++ name` (expanded) and `~~~ name` (collapsed, not
 * shown in the summary) open groups; a script prints `^^^ +++` to expand the group it failed in; the
 * agent ends a failed command with `🚨 Error: The command exited with status N`.
 */
export const buildkite: CiFormatModule = {
  id: 'buildkite',
  ceiling: 0.9,
  failureOrder: 'last',
  detect({ lines }: FormatInput): number {
    const agent = countLines(lines, (t) => AGENT.test(t), 1);
    if (!agent) return 0;
    return countLines(lines, (t) => GROUP.test(text(t)), 2) >= 2 ? 0.9 : 0.5;
  },
  steps({ lines, totalLines }: FormatInput): Step[] {
    const steps: Step[] = [];
    let current: Step | null = null;
    let expanded: Step | null = null;
    for (const l of lines) {
      const t = text(l.text);
      const g = GROUP.exec(t);
      if (g) {
        if (current) current.endLine = l.n - 1;
        const name = g[2]!.trim();
        current = { name, startLine: l.n, endLine: totalLines, kind: kindOf(name), errorLines: [] };
        steps.push(current);
        continue;
      }
      if (EXPAND.test(t) && current) {
        // The script failed in this group and asks Buildkite to show it.
        current.failed = true;
        current.errorLines.push(l.n);
        expanded = current;
        continue;
      }
      const exit = EXIT.exec(t);
      if (exit) {
        if (!current) {
          // No group header before the exit (a pasted command's output, the agent's headers left out):
          // everything up to the exit is that command's output, so the step starts at the log's first line.
          current = { name: 'job', startLine: lines[0]?.n ?? l.n, endLine: l.n, kind: 'user', errorLines: [] };
          steps.push(current);
        }
        // Groups a cleanup trap opened after the failure (`--- upload logs`) are not where it failed.
        const owner: Step = expanded && current.kind !== 'setup' ? expanded : current;
        owner.errorLines.push(l.n);
        owner.exitCode = Number(exit[1]);
        if (owner !== current) for (const s of steps.slice(steps.indexOf(owner) + 1)) if (s.kind === 'user') s.kind = 'post';
      }
    }
    return steps;
  },
};
