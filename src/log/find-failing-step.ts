import type { FailingStep, LogLine } from '../types.js';
import type { SectionMarker } from './scan-log.js';

export interface Step extends FailingStep {
  /** The runner's or CI's own error lines inside the step (`##[error]…`, `ERROR: Job failed…`). */
  errorLines: number[];
  /** Exit code when the step reported one. */
  exitCode?: number;
}

export interface StepLayout {
  format: 'github-actions' | 'gitlab' | 'travis' | 'plain';
  steps: Step[];
  failing: Step | null;
  /** First line of the runner's post-job cleanup, which is never the cause (Actions only). */
  cleanupStart?: number;
}

const ACTIONS_STEP = /^##\[group\]Run (.*)$/;
const ACTIONS_ERROR = /^##\[error\](.*)$/;
const ACTIONS_EXIT = /^##\[error\]Process completed with exit code (\d+)\.?$/;
const ACTIONS_POST = /^Post job cleanup\.$|^##\[group\]Post /;
const GITLAB_FAILED = /^ERROR: Job failed/;
const GITLAB_EXIT = /^ERROR: Job failed: exit code (\d+)/;
/** The section running the job's own commands (`step_script`, older `build_script`), not the runner's. */
const GITLAB_SCRIPT = /^(?!(?:after|prepare)_script$).*script/;
const TRAVIS_FAILED = /^The command "(.*)" exited with (\d+)\.$/;

/**
 * Splits the log into the CI's steps and picks the one that ended the job: the last step that carries a
 * runner error (`##[error]Process completed with exit code N.` or any `##[error]`). A step that failed
 * with continue-on-error is followed by steps that ran, so the *last* failed step is the cause.
 */
export function findFailingStep(lines: readonly LogLine[], sections: readonly SectionMarker[], totalLines: number): StepLayout {
  if (sections.length) return fromSections(lines, sections, totalLines);
  const steps: Step[] = [];
  let current: Step | null = null;
  let sawActions = false;
  let postAt = 0;
  for (const l of lines) {
    const t = l.text;
    if (!t.startsWith('##[') && !t.startsWith('Post job')) continue;
    const start = ACTIONS_STEP.exec(t);
    if (start) {
      sawActions = true;
      if (current) current.endLine = l.n - 1;
      current = { name: start[1]!.trim(), startLine: l.n, endLine: totalLines, errorLines: [] };
      steps.push(current);
      continue;
    }
    if (ACTIONS_POST.test(t)) {
      if (current) current.endLine = l.n - 1;
      current = null;
      postAt ||= l.n;
      continue;
    }
    if (ACTIONS_ERROR.test(t)) {
      sawActions = true;
      const exit = ACTIONS_EXIT.exec(t);
      if (!current) {
        // An error outside any step (the runner cancelling the job, a timeout): a step of its own.
        current = { name: 'job', startLine: l.n, endLine: l.n, errorLines: [] };
        steps.push(current);
      }
      current.errorLines.push(l.n);
      if (exit) current.exitCode = Number(exit[1]);
    }
  }
  if (!sawActions) return { format: 'plain', steps: [], failing: null };
  const failing = [...steps].reverse().find((s) => s.errorLines.length > 0) ?? null;
  return { format: 'github-actions', steps, failing, ...(postAt ? { cleanupStart: postAt } : {}) };
}

function fromSections(lines: readonly LogLine[], sections: readonly SectionMarker[], totalLines: number): StepLayout {
  const steps: Step[] = [];
  const open = new Map<string, Step>();
  const gitlab = sections.some((m) => m.ci === 'gitlab');
  let textAt: Map<number, string> | undefined;
  for (const m of sections) {
    const key = (m.timer ? 'time:' : '') + m.name;
    if (m.kind === 'start') {
      let name = m.name;
      if (m.timer) {
        // A Travis timer wraps one command, printed on its start line (`$ python -m unittest`).
        textAt ??= new Map(lines.map((l) => [l.n, l.text]));
        name = /^\$ (.+)$/.exec(textAt.get(m.n) ?? '')?.[1]?.trim() ?? m.name;
      }
      const s: Step = { name, startLine: m.n, endLine: totalLines, errorLines: [] };
      open.set(key, s);
      steps.push(s);
    } else {
      const s = open.get(key);
      if (s) s.endLine = m.n;
      open.delete(key);
    }
  }
  // Travis prints the failed command after its fold / timer; GitLab its job error at the very end.
  for (const l of lines) {
    const gl = GITLAB_FAILED.test(l.text);
    const tr = gl ? null : TRAVIS_FAILED.exec(l.text);
    if (!gl && !tr) continue;
    const owner = [...steps].reverse().find((s) => s.startLine <= l.n) ?? null;
    if (!owner) continue;
    owner.errorLines.push(l.n);
    const code = tr ? tr[2] : GITLAB_EXIT.exec(l.text)?.[1];
    if (code !== undefined) owner.exitCode = Number(code);
  }
  // GitLab's failing section is the script section (the last one opened before the job error), not
  // after_script, upload_artifacts_on_failure or cleanup_file_variables that run after it.
  let failing = [...steps].reverse().find((s) => s.errorLines.length > 0) ?? null;
  if (failing && gitlab) {
    const scripts = steps.filter((s) => GITLAB_SCRIPT.test(s.name) && s.startLine <= failing!.errorLines[0]!);
    const last = scripts[scripts.length - 1];
    if (last && last !== failing) {
      last.errorLines.push(...failing.errorLines);
      if (failing.exitCode !== undefined) last.exitCode = failing.exitCode;
      failing.errorLines = [];
      delete failing.exitCode;
      failing = last;
    }
  }
  // Travis: a failing command line sits right after its fold: the step is the stretch up to it.
  if (failing && !gitlab && failing.endLine < failing.errorLines[0]!) failing.endLine = failing.errorLines[0]!;
  return { format: gitlab ? 'gitlab' : 'travis', steps, failing };
}
