import type { LogLine } from '../../types.js';
import { countLines, type CiFormatModule, type FormatInput, type Step } from './step.js';

const STEP = /^##\[group\]Run (.*)$/;
const ERROR = /^##\[error\](.*)$/;
const EXIT = /^##\[error\]Process completed with exit code (\d+)\.?$/;
const POST = /^Post job cleanup\.$|^##\[group\]Post /;
/** The runner's first line of a job's log: its set-up, before any step. */
const SET_UP = /^Current runner version:/;
/** The runner stopping a job from outside: not something its set-up or a step did. */
const STOPPED = /^##\[error\](?:The operation was canceled|The job (?:running on runner .* )?has exceeded|The runner has received a shutdown signal)/;
/** Actions setup steps the runner names itself (`Run actions/checkout@v4` is the user's `uses:`). */
const SETUP_ACTION = /^(?:actions\/(?:checkout|setup-[a-z]+|cache)|[\w.-]+\/setup-[\w-]+)@/;

/**
 * A step that failed by the runner's annotation alone (no exit code: a JavaScript action's `setFailed`,
 * dorny/test-reporter's `No test report files were found`) after an earlier step exited non-zero ran under
 * `if: always()` or `failure()`: it reports on that failure (its test results, its artifacts), it did not
 * cause it, so it is read as a post step. The runner stopping the job (a cancel, a timeout) is not one.
 */
function reportsOnFailure(steps: (Step & { stopped?: true })[]): void {
  let exited = false;
  for (const s of steps) {
    if (exited && s.exitCode === undefined && s.errorLines.length && !s.stopped && s.kind !== 'post') s.kind = 'post';
    if (s.exitCode !== undefined && s.exitCode !== 0) exited = true;
  }
  for (const s of steps) delete s.stopped;
}

/** The first lines of the jobs of a text of several jobs (the scanner's `gh-job` markers), none for a raw job log. */
function jobStartLines(sections: FormatInput['sections']): number[] {
  const starts = sections.filter((m) => m.ci === 'gh-job').map((m) => m.n);
  return starts.length < 2 ? [] : starts.slice(1);
}

/** The kept line numbered `n`, searched back from index `i` (a job's first line is at or before the line read). */
function lineAt(lines: readonly LogLine[], n: number, i: number): LogLine | undefined {
  for (let k = i; k >= 0; k--) {
    const l = lines[k]!;
    if (l.n === n) return l;
    if (l.n < n) return lines[k + 1];
  }
  return lines[0];
}

/**
 * A text of several jobs one after the other (`gh run view --log` of a whole run, `--log-failed` of its
 * failed steps) says which job each line is by its `job<TAB>step<TAB>` prefix; the cleaner cuts the prefix and
 * the scanner notes a `gh-job` marker where the job's name changes. Each step is given the number of its job,
 * so the failing step is chosen within one job (pickFailingStep). A raw job log (no such marker; its set-up
 * lines are no sign, a log pasted twice repeats them) is left as it is.
 */
function numberJobs(steps: Step[], sections: FormatInput['sections']): void {
  const starts = sections.filter((m) => m.ci === 'gh-job').map((m) => m.n);
  if (starts.length < 2) return;
  let j = 0;
  for (const s of steps) {
    while (j + 1 < starts.length && starts[j + 1]! <= s.startLine) j++;
    s.job = j;
  }
}

/**
 * GitHub Actions raw job logs: `##[group]Run <step>` opens a step, `##[error]` lines are the runner's
 * errors (`Process completed with exit code N.` carries the exit), `Post job cleanup.` starts the
 * cleanup. Azure Pipelines shares `##[error]` / `##[group]` but marks steps with `##[section]`.
 */
export const actions: CiFormatModule = {
  id: 'github-actions',
  ceiling: 0.9,
  failureOrder: 'last',
  detect({ lines }: FormatInput): number {
    const runs = countLines(lines, (t) => t.startsWith('##[group]Run '), 1);
    const errors = runs ? 0 : countLines(lines, (t) => t.startsWith('##[error]'), 1);
    if (!runs && !errors) return 0;
    if (countLines(lines, (t) => t.startsWith('##[section]'), 1)) return 0.3;
    return runs ? 0.9 : 0.6;
  },
  steps({ lines, totalLines, sections }: FormatInput): Step[] {
    const steps: (Step & { stopped?: true })[] = [];
    let current: (Step & { stopped?: true }) | null = null;
    // In a text of several jobs (`gh run view --log`), a step ends where its job does: the next job's set-up
    // is not its output, and an error the runner prints there before that job's first step is that job's.
    const jobStarts = jobStartLines(sections);
    let nextJob = 0;
    let jobFirst: LogLine | undefined = lines[0];
    let stepsInJob = 0;
    // An index loop and a first-character test: this runs once over every kept line (~33,000 of a huge
    // log) in code not yet optimised, where an array iterator and two prefix tests cost more than the rest.
    for (let i = 0; i < lines.length; i++) {
      const l = lines[i]!;
      const t = l.text;
      const c = t.charCodeAt(0);
      if (c !== 35 /* # */ && c !== 80 /* P */) continue;
      if (!t.startsWith('##[') && !t.startsWith('Post job')) continue;
      if (nextJob < jobStarts.length && jobStarts[nextJob]! <= l.n) {
        while (nextJob < jobStarts.length && jobStarts[nextJob]! <= l.n) nextJob++;
        const first = jobStarts[nextJob - 1]!;
        if (current && current.endLine >= first) current.endLine = first - 1;
        current = null;
        stepsInJob = 0;
        jobFirst = lineAt(lines, first, i);
      }
      const start = STEP.exec(t);
      if (start) {
        if (current) current.endLine = l.n - 1;
        const name = start[1]!.trim();
        current = { name, startLine: l.n, endLine: totalLines, kind: SETUP_ACTION.test(name) ? 'setup' : 'user', errorLines: [] };
        steps.push(current);
        stepsInJob++;
        continue;
      }
      if (POST.test(t)) {
        if (current) current.endLine = l.n - 1;
        current = null;
        continue;
      }
      if (ERROR.test(t)) {
        const exit = EXIT.exec(t);
        if (!current) {
          // An error before any step began is the job's opening part's: the runner's own set-up (an action
          // it cannot resolve, a deprecated one it refuses), or, in a log whose copy starts inside a step,
          // that step's output. It spans from the log's first line. The runner stopping the job (a cancel,
          // a timeout), before the steps or after them, is a step of its own.
          const opening = stepsInJob === 0 && jobFirst !== undefined && !STOPPED.test(t);
          const name = opening && SET_UP.test(jobFirst!.text) ? 'Set up job' : 'job';
          current = { name, startLine: opening ? jobFirst!.n : l.n, endLine: l.n, kind: 'user', errorLines: [] };
          // The runner refusing the job's set-up (an action it cannot resolve or download, a deprecated one it
          // refuses) ends the job as surely as a step exiting non-zero, though it prints no exit code: none of
          // the job's steps ran. Marked failed so that, in a text of several jobs, this job is read first.
          if (name === 'Set up job') current.failed = true;
          steps.push(current);
          stepsInJob++;
        }
        current.errorLines.push(l.n);
        if (exit) current.exitCode = Number(exit[1]);
        else if (STOPPED.test(t)) current.stopped = true;
      }
    }
    reportsOnFailure(steps);
    numberJobs(steps, sections);
    return steps;
  },
  cleanupStart({ lines }: FormatInput): number | undefined {
    return lines.find((l) => (l.text.startsWith('Post job') || l.text.startsWith('##[group]Post ')) && POST.test(l.text))?.n;
  },
};
