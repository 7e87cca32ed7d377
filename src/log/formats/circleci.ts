import { countLines, type CiFormatModule, type FormatInput, type Step, type StepKind } from './step.js';

/** CircleCI runs each `run:` step as a script with this shebang, shown first in the step's output. */
const SHEBANG = /^#!\/bin\/(?:ba)?sh -eo pipefail$/;
const EXIT = /^Exited with code (?:exit status )?(-?\d+)$/;
const RECEIVED = /^CircleCI received exit code (-?\d+)$/;
const NO_OUTPUT = /^Too long with no output \(exceeded [^)]+\)/;
/** What the job page shows between a step's name and its output: line numbers, the duration, buttons. */
const PAGE_CHROME = /^(?:\d+|\d+(?:\.\d+)?(?:ms|s|m)(?: \d+s)?|Explain this error|AI Experiment)$/;
/** How far above a shebang the step's name may be (past the chrome). */
const NAME_LOOKBACK = 16;
/** The built-in steps, as the job page names them. */
const BUILTIN: readonly [RegExp, StepKind][] = [
  [/^(?:Spin up environment|Spin up Environment|Preparing environment variables|Checkout code|Restoring cache|Attaching workspace|Setup a remote Docker engine|Setting up remote docker)$/, 'setup'],
  [/^(?:Saving cache|Persisting to workspace|Uploading artifacts|Uploading test results|Store Test Results|Store artifacts)$/, 'post'],
];

/**
 * CircleCI job output as the job page or the API shows it: each `run:` step prints its script's shebang
 * (`#!/bin/bash -eo pipefail`) and its command, and a failed one ends with `Exited with code exit status
 * N` (and `CircleCI received exit code N`). The built-in steps (`Checkout code`, `Saving cache`) are named
 * on a line of their own.
 */
export const circleci: CiFormatModule = {
  id: 'circleci',
  ceiling: 0.9,
  // A job stops at its first failed step; a failed step after it ran only because it says `when: always`.
  failureOrder: 'first',
  detect({ lines }: FormatInput): number {
    const shebangs = countLines(lines, (t) => SHEBANG.test(t), 1);
    const exits = countLines(lines, (t) => EXIT.test(t) || RECEIVED.test(t), 1);
    return shebangs && exits ? 0.9 : exits ? 0.7 : shebangs ? 0.4 : 0;
  },
  steps({ lines, totalLines }: FormatInput): Step[] {
    const steps: Step[] = [];
    let current: Step | null = null;
    const recent: { n: number; text: string }[] = [];
    const open = (name: string, n: number, kind: StepKind) => {
      if (current) current.endLine = n - 1;
      current = { name, startLine: n, endLine: totalLines, kind, errorLines: [] };
      steps.push(current);
    };
    for (const l of lines) {
      const t = l.text.trim();
      const builtin = t.length < 60 ? BUILTIN.find(([re]) => re.test(t)) : undefined;
      if (builtin) open(t, l.n, builtin[1]);
      else if (SHEBANG.test(t)) {
        // The step's name is above the shebang on the job page (past its chrome); the API output has none.
        const last = steps[steps.length - 1];
        const named = [...recent].reverse().find((r) => !PAGE_CHROME.test(r.text));
        const ok = named && named.text.length < 120 && l.n - named.n <= NAME_LOOKBACK && !(last && named.n <= (last.errorLines.at(-1) ?? 0));
        open(ok ? named.text : 'run', ok ? named.n : l.n, 'user');
      } else {
        const exit = EXIT.exec(t) ?? RECEIVED.exec(t);
        const stalled = !exit && NO_OUTPUT.test(t);
        if (exit || stalled) {
          // An exit with no step opened before it (a copy that starts at the output): the step is all above it.
          if (!current) open('job', lines[0]?.n ?? l.n, 'user');
          const s = current!;
          s.errorLines.push(l.n);
          if (exit) s.exitCode = Number(exit[1]);
          else s.failed = true;
          if (s.endLine < l.n) s.endLine = l.n;
        }
      }
      if (t) {
        recent.push({ n: l.n, text: t });
        if (recent.length > NAME_LOOKBACK) recent.shift();
      }
    }
    return steps;
  },
};
