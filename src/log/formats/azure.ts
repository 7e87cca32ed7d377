import { countLines, type CiFormatModule, type FormatInput, type Step, type StepKind } from './step.js';

const START = /^##\[section\]Starting: (.*)$/;
const FINISH = /^##\[section\]Finishing: (.*)$/;
const ERROR = /^##\[error\]/;
/** How Azure's script tasks report the exit: Bash, CmdLine, PowerShell, and the generic task runner. */
const EXIT = /^##\[error\](?:(?:Bash|Cmd\.exe|PowerShell|pwsh) exited with code '(-?\d+)'\.|Script failed with exit code: (-?\d+)|The process '[^']*' failed with exit code (-?\d+))/;
const SETUP = /^(?:Initialize job|Initialize containers|Pre-job: |Checkout |Checkout$|Download |UseNode|Use Python|Use Node)/;
const POST = /^(?:Post-job: |Finalize Job$|Finalize build$|Report build status$)/;

function kindOf(name: string): StepKind {
  if (POST.test(name)) return 'post';
  return SETUP.test(name) ? 'setup' : 'user';
}

/**
 * Azure Pipelines job logs: `##[section]Starting: <task>` / `##[section]Finishing: <task>` around each
 * task, `##[error]` for errors (`Bash exited with code '3'.` carries the exit). The job itself opens a
 * section around all its tasks; a section that holds other sections is the job, not a step.
 */
export const azure: CiFormatModule = {
  id: 'azure',
  ceiling: 0.95,
  failureOrder: 'last',
  detect({ lines }: FormatInput): number {
    const sections = countLines(lines, (t) => t.startsWith('##[section]Starting: ') || t.startsWith('##[section]Finishing: '), 2);
    return sections >= 2 ? 0.95 : sections ? 0.6 : 0;
  },
  steps({ lines, totalLines }: FormatInput): Step[] {
    const steps: Step[] = [];
    let current: Step | null = null;
    // The last runner line (`##[command]git fetch`, a section) before the current errors began.
    let lastRunnerLine = 0;
    for (const l of lines) {
      const t = l.text;
      if (!t.startsWith('##[')) continue;
      const start = START.exec(t);
      if (start) {
        // A section still open when the next starts on the very next line is the job around the tasks.
        if (current && l.n - current.startLine <= 1 && !current.errorLines.length) steps.splice(steps.indexOf(current), 1);
        else if (current) current.endLine = l.n - 1;
        const name = start[1]!.trim();
        current = { name, startLine: l.n, endLine: totalLines, kind: kindOf(name), errorLines: [] };
        steps.push(current);
        lastRunnerLine = l.n;
        continue;
      }
      const finish = FINISH.exec(t);
      if (finish) {
        const name = finish[1]!.trim();
        if (current && current.name !== name && current.errorLines.length) {
          // A copy that skipped this task's start (a bot's excerpt): its lines, errors included, are the
          // ones after the last runner line of the task that did start.
          const own: Step = { name, startLine: lastRunnerLine + 1, endLine: l.n, kind: kindOf(name), errorLines: current.errorLines.filter((n) => n > lastRunnerLine) };
          if (current.exitCode !== undefined) own.exitCode = current.exitCode;
          delete current.exitCode;
          current.errorLines = current.errorLines.filter((n) => n <= lastRunnerLine);
          current.endLine = lastRunnerLine;
          steps.push(own);
        } else if (current) current.endLine = l.n;
        current = null;
        lastRunnerLine = l.n;
        continue;
      }
      if (!ERROR.test(t)) {
        if (!current?.errorLines.length) lastRunnerLine = l.n;
        continue;
      }
      if (!current) {
        // An error between tasks (the agent, a timeout), or the exit of a task whose start a bot's excerpt
        // cut: a step of its own, from the line after the last runner line (a section, `##[command]git …`).
        const from = lastRunnerLine ? lastRunnerLine + 1 : (lines[0]?.n ?? l.n);
        current = { name: 'job', startLine: Math.min(from, l.n), endLine: l.n, kind: 'user', errorLines: [] };
        steps.push(current);
      }
      current.errorLines.push(l.n);
      const exit = EXIT.exec(t);
      const code = exit?.[1] ?? exit?.[2] ?? exit?.[3];
      if (code !== undefined) current.exitCode = Number(code);
    }
    return steps;
  },
};
