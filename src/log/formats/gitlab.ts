import type { LogLine } from '../../types.js';
import type { SectionMarker } from '../scan-log.js';
import { countLines, type CiFormatModule, type FormatInput, type Step, type StepKind } from './step.js';

const JOB_FAILED = /^ERROR: Job failed/;
/** The docker executor says `exit code 1`, the shell executor `exit status 1`, Kubernetes `command terminated with exit code 1`. */
const JOB_EXIT = /^ERROR: Job failed: (?:command terminated with )?exit (?:code|status) (\d+)/;
/** The section running the job's own commands (`step_script`, older `build_script`), not the runner's. */
const SCRIPT = /^(?!(?:after|prepare)_script$).*script/;
const POST_SECTION = /^(?:after_script|archive_cache|archive_cache_on_failure|upload_artifacts(?:_on_(?:success|failure))?|cleanup_file_variables)$/;
/**
 * A trace copied from the job page has lost its section markers but keeps the runner's headings:
 * `Executing "step_script" stage of the job script`, `Running after_script`, `Uploading artifacts…`.
 */
const HEADING: readonly [RegExp, string, StepKind][] = [
  [/^Preparing the "[^"]+" executor$/, 'prepare_executor', 'setup'],
  [/^Preparing environment$/, 'prepare_script', 'setup'],
  [/^Getting source from Git repository$/, 'get_sources', 'setup'],
  [/^Restoring cache$/, 'restore_cache', 'setup'],
  [/^Downloading artifacts$/, 'download_artifacts', 'setup'],
  [/^Executing "([a-z_]+)" stage of the job script$/, '', 'user'],
  [/^Running after_script$/, 'after_script', 'post'],
  [/^Saving cache for (?:successful|failed) job$/, 'archive_cache', 'post'],
  [/^Uploading artifacts for (?:successful|failed) job$/, 'upload_artifacts', 'post'],
  [/^Cleaning up (?:project directory and )?file based variables$/, 'cleanup_file_variables', 'post'],
];

/** The duration the job page prints under each copied heading (`00:17`, `01:02:03`). */
const DURATION = /^\d\d(?::\d\d){1,2}$/;

/**
 * The runner's own lines in a trace copied from the job page: its section headings and the duration under
 * each. They say which section ran, not why it failed, so they are never evidence.
 */
function runnerHeadingLines(lines: readonly LogLine[]): number[] {
  const own: number[] = [];
  let afterHeading = false;
  for (const l of lines) {
    const t = l.text.trim();
    const heading = t.length <= 80 && HEADING.some(([re]) => re.test(t));
    if (heading || (afterHeading && DURATION.test(t))) own.push(l.n);
    afterHeading = heading;
  }
  return own;
}

function kindOf(name: string): StepKind {
  if (POST_SECTION.test(name)) return 'post';
  return SCRIPT.test(name) ? 'user' : 'setup';
}

/**
 * GitLab CI job traces: `section_start:<ts>:<name>` / `section_end:` markers (hidden by escape codes,
 * see markers.ts) around each runner stage, `ERROR: Job failed: exit code N` at the very end. The job
 * error belongs to the script section, not to after_script or the artifact upload that ran after it.
 */
export const gitlab: CiFormatModule = {
  id: 'gitlab',
  ceiling: 0.95,
  failureOrder: 'last',
  detect({ lines, sections }: FormatInput): number {
    if (sections.some((m) => m.ci === 'gitlab')) return 0.95;
    const runner = countLines(lines, (t) => t.startsWith('Running with gitlab-runner '), 1);
    const headings = countLines(lines, (t) => t.startsWith('Executing "') && t.endsWith('" stage of the job script'), 1);
    if (runner && headings) return 0.9;
    if (runner || headings) return 0.5;
    // A pasted tail of a trace keeps at least the runner's last line.
    return countLines(lines, (t) => t.startsWith('ERROR: Job failed: ') && JOB_EXIT.test(t), 1) ? 0.45 : 0;
  },
  steps({ lines, sections, totalLines }: FormatInput): Step[] {
    const marked = sections.filter((m) => m.ci === 'gitlab');
    const steps = marked.length ? fromMarkers(marked, totalLines) : fromHeadings(lines, totalLines);
    attachJobError(lines, steps);
    return steps;
  },
  runnerLines: runnerHeadingLines,
};

function fromMarkers(sections: readonly SectionMarker[], totalLines: number): Step[] {
  const steps: Step[] = [];
  const open = new Map<string, Step>();
  for (const m of sections) {
    if (m.kind === 'start') {
      const s: Step = { name: m.name, startLine: m.n, endLine: totalLines, kind: kindOf(m.name), errorLines: [] };
      open.set(m.name, s);
      steps.push(s);
    } else {
      const s = open.get(m.name);
      if (s) s.endLine = m.n;
      open.delete(m.name);
    }
  }
  return steps;
}

function fromHeadings(lines: FormatInput['lines'], totalLines: number): Step[] {
  const steps: Step[] = [];
  for (const l of lines) {
    if (l.text.length > 80) continue;
    for (const [re, name, kind] of HEADING) {
      const m = re.exec(l.text);
      if (!m) continue;
      const prev = steps[steps.length - 1];
      if (prev) prev.endLine = l.n - 1;
      const stepName = name || m[1]!;
      steps.push({ name: stepName, startLine: l.n, endLine: totalLines, kind: name ? kind : kindOf(stepName), errorLines: [] });
      break;
    }
  }
  return steps;
}

/** `ERROR: Job failed…` is printed last, after after_script and the uploads: it is the script section's. */
function attachJobError(lines: FormatInput['lines'], steps: Step[]): void {
  for (const l of lines) {
    if (!JOB_FAILED.test(l.text)) continue;
    const before = steps.filter((s) => s.startLine <= l.n);
    let owner = [...before].reverse().find((s) => s.kind === 'user');
    // The runner runs its sections in order and stops at the first that fails: a job error with no script
    // section above it, after a set-up section (`Getting source from Git repository`, `Preparing
    // environment`), ended in the last set-up section that started, not in a script that never ran.
    if (!owner) owner = [...before].reverse().find((s) => s.kind === 'setup');
    if (!owner) {
      // A tail that starts inside the script (only the cleanup headings survived): the script is all above them.
      const first = lines[0]?.n ?? l.n;
      const end = steps[0] ? steps[0].startLine - 1 : l.n;
      if (end >= first) {
        owner = { name: 'step_script', startLine: first, endLine: end, kind: 'user', errorLines: [] };
        steps.unshift(owner);
      } else owner = before[before.length - 1];
    }
    if (!owner) continue;
    owner.errorLines.push(l.n);
    const code = JOB_EXIT.exec(l.text)?.[1];
    if (code !== undefined) owner.exitCode = Number(code);
  }
}
