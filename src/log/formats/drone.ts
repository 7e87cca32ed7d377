import { countLines, type CiFormatModule, type FormatInput, type Step, type StepKind } from './step.js';

/**
 * `drone exec` (Drone 0.5–0.8) and `woodpecker-cli exec` print every output line of a step as
 * `[<step>:L<line>:<seconds>s] <text>`; steps of one stage may interleave (services run beside them).
 */
const LINE = /^\[([^\]:\s]+):L\d+:\d+s\] ?/;
/** The end of a step: `[smoke-test] exit code 0` (0.5–0.7), `2018/06/22 20:16:04 drone_step_0 : exit code 1` (0.8). */
const STEP_EXIT = /^\[([^\]:\s]+)\] exit code (-?\d+)$/;
const NUMBERED_EXIT = /^(?:\d{4}\/\d\d\/\d\d \d\d:\d\d:\d\d )?drone_step_\d+ : exit code (-?\d+)$/;
/** The clone step and the plugins that only report run after the outcome is decided or before the work. */
const SETUP = /^(?:clone|git)$/;
const POST = /^(?:notify|slack|email|webhook|cache-rebuild|rebuild-cache)$/;

function kindOf(name: string): StepKind {
  if (SETUP.test(name)) return 'setup';
  return POST.test(name) ? 'post' : 'user';
}

/**
 * Drone / Woodpecker CLI output. A step runs from its first prefixed line to its last one (or its exit
 * line); the runner stops at the first failed step, so the failure is the last step that ran. A step
 * whose exit code the log lacks failed when the run ends with an exit line that names no step (0.8).
 */
export const drone: CiFormatModule = {
  id: 'drone',
  ceiling: 0.9,
  failureOrder: 'last',
  linePrefix: LINE,
  detect({ lines }: FormatInput): number {
    const prefixed = countLines(lines, (t) => LINE.test(t), 3);
    const exits = countLines(lines, (t) => STEP_EXIT.test(t) || NUMBERED_EXIT.test(t), 1);
    if (prefixed >= 3) return exits ? 0.9 : 0.8;
    return prefixed && exits ? 0.8 : 0;
  },
  steps({ lines }: FormatInput): Step[] {
    const steps: Step[] = [];
    const byName = new Map<string, Step>();
    let last: Step | undefined;
    const step = (name: string, n: number): Step => {
      let s = byName.get(name);
      if (!s) {
        s = { name, startLine: n, endLine: n, kind: kindOf(name), errorLines: [] };
        byName.set(name, s);
        steps.push(s);
      }
      if (s.endLine < n) s.endLine = n;
      return s;
    };
    for (const l of lines) {
      const t = l.text.trim();
      const own = LINE.exec(t);
      if (own) {
        last = step(own[1]!, l.n);
        continue;
      }
      const exit = STEP_EXIT.exec(t);
      if (exit) {
        const s = step(exit[1]!, l.n);
        s.exitCode = Number(exit[2]);
        if (s.exitCode !== 0) s.errorLines.push(l.n);
        last = s;
        continue;
      }
      const numbered = NUMBERED_EXIT.exec(t);
      if (numbered && last) {
        // 0.8 names the container, not the step: the exit belongs to the step whose output came last.
        last.exitCode = Number(numbered[1]);
        if (last.exitCode !== 0) last.errorLines.push(l.n);
        last.endLine = l.n;
      }
    }
    return steps;
  },
};
