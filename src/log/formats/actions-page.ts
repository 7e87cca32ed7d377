import type { LogLine } from '../../types.js';
import { type CiFormatModule, type FormatInput, type Step } from './step.js';

/**
 * A GitHub Actions job as copied from its web page (the form people paste into issues and notes): the page
 * renders `##[group]Run <cmd>` as `Run <cmd>` with the step's script echoed below it indented by two
 * spaces and its `shell:` / `env:` lines, and `##[error]…` as `Error: …`, so the runner's exit reads
 * `Error: Process completed with exit code 1.`. Timestamps are gone.
 */
const RUN = /^Run (\S.*)$/;
/** The step's echo the page keeps under `Run …`: the script indented, then the runner's own `shell:` line. */
const SHELL = /^ {2}shell: \S/;
const EXIT = /^Error: Process completed with exit code (\d+)\.?$/;
/** The runner's own errors as the page shows them (a program's `Error: …` output is not the runner's). */
const RUNNER_ERROR = /^Error: (?:The operation was canceled|The job running on runner .* has exceeded|The runner has received a shutdown signal)/;
const POST = /^Post job cleanup\.$|^Post Run /;
/** How far below `Run …` its `shell:` line may sit: the echoed script and the `with:` inputs come first. */
const SHELL_WITHIN = 40;
const SETUP_ACTION = /^(?:actions\/(?:checkout|setup-[a-z]+|cache)|[\w.-]+\/setup-[\w-]+)@/;

/**
 * The `Run …` lines that open a step: a `shell:` line of the step's echo follows within a few lines. With
 * the page's own exit line in the log (`paged`), a `Run …` whose echo was left folded (the next line blank or
 * two spaces) opens one too.
 */
function stepStarts(lines: readonly LogLine[], paged: boolean, enough = Infinity): number[] {
  const starts: number[] = [];
  for (let i = 0; i < lines.length && starts.length < enough; i++) {
    const t = lines[i]!.text;
    if (t.charCodeAt(0) !== 82 /* R */ || !RUN.test(t)) continue;
    if (paged && i + 1 < lines.length && lines[i + 1]!.text.trim() === '') {
      starts.push(i);
      continue;
    }
    for (let j = i + 1; j < Math.min(lines.length, i + 1 + SHELL_WITHIN); j++) {
      const u = lines[j]!.text;
      if (SHELL.test(u)) {
        starts.push(i);
        break;
      }
      // The echo is indented: an unindented line ends it (another step, or the command's own output).
      if (u !== '' && !u.startsWith(' ')) break;
    }
  }
  return starts;
}

export const actionsPage: CiFormatModule = {
  id: 'github-actions',
  ceiling: 0.7,
  failureOrder: 'last',
  detect({ lines }: FormatInput): number {
    const paged = lines.some((l) => EXIT.test(l.text));
    if (!stepStarts(lines, paged, 1).length) return 0;
    // The runner's exit as the page shows it makes the copy certain; a `Run …` with its `shell:` alone is likely.
    return paged ? 0.7 : 0.5;
  },
  steps({ lines, totalLines }: FormatInput): Step[] {
    const starts = new Set(stepStarts(lines, lines.some((l) => EXIT.test(l.text))));
    const steps: Step[] = [];
    let current: Step | null = null;
    for (let i = 0; i < lines.length; i++) {
      const l = lines[i]!;
      const t = l.text;
      if (starts.has(i)) {
        if (current) current.endLine = l.n - 1;
        const name = RUN.exec(t)![1]!.trim();
        current = { name, startLine: l.n, endLine: totalLines, kind: SETUP_ACTION.test(name) ? 'setup' : 'user', errorLines: [] };
        steps.push(current);
        continue;
      }
      if (POST.test(t)) {
        if (current) current.endLine = l.n - 1;
        current = null;
        continue;
      }
      const exit = EXIT.exec(t);
      if (exit && current) {
        current.errorLines.push(l.n);
        current.exitCode = Number(exit[1]);
        // The runner prints nothing of this step after its exit: what follows is the next step's copy.
        current.endLine = l.n;
        current = null;
      } else if (current && RUNNER_ERROR.test(t)) {
        current.errorLines.push(l.n);
      }
    }
    return steps;
  },
  cleanupStart({ lines }: FormatInput): number | undefined {
    return lines.find((l) => POST.test(l.text))?.n;
  },
};
