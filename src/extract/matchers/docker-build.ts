import type { LogLine, Signal } from '../../types.js';
import type { Matcher } from './matcher.js';

const MAX_LINE = 2000;
/** Errors read per log: a build fails once; more are other builds of a matrix. */
const MAX_ERRORS = 20;
// The step being run, so an error can name its instruction: the classic builder's `Step 2/3 : COPY hello /`,
// BuildKit's `#4 [1/1] COPY ./bin/hello /` (or `#7 [build 3/5] RUN make`).
const CLASSIC_STEP = /^Step \d+\/\d+ : (.+)$/;
const KIT_STEP = /^#(\d+) \[(?:[\w.-]+ )?\d+\/\d+\] (.+)$/;
// `dockerfile parse error line 3: unknown instruction: CMND` (both builders, BuildKit behind `failed to solve …:`).
const PARSE = /dockerfile parse error (?:on )?line (\d+): (.*)$/i;
// The classic builder: `COPY failed: file not found in build context …`, `The command '/bin/sh -c x' returned a non-zero code: 2`.
const CLASSIC_FAIL = /^((?:COPY|ADD) failed: .*|The command '(.*)' returned a non-zero code: (\d+))$/;
// BuildKit: `#4 ERROR: failed to walk …`, `#5 ERROR: executor failed running [/bin/sh -c x]: exit code: 1`.
const KIT_ERROR = /^#(\d+) ERROR: (.*)$/;
// A RUN that exits non-zero failed for the reason its own output gives: the tool's matcher pins that.
const RUN_EXIT = /exit code: \d+|returned a non-zero code/;

/**
 * Reads `docker build` failures (the classic builder and BuildKit's plain progress): a Dockerfile parse
 * error pinned to its line, and a failed instruction named by its text (COPY of a missing file, a RUN
 * that exited non-zero), which the locator can find in the Dockerfile.
 */
export const dockerBuildMatcher: Matcher = {
  id: 'docker-build',
  extract(lines: readonly LogLine[]): Signal[] {
    const out: Signal[] = [];
    const steps = new Map<string, { text: string; n: number }>(); // BuildKit's step id → its instruction
    let classic: { text: string; n: number } | undefined;
    for (const { n, text } of lines) {
      if (out.length >= MAX_ERRORS) break;
      if (text.length > MAX_LINE) continue;
      const cs = text.startsWith('Step ') ? CLASSIC_STEP.exec(text) : null;
      if (cs) {
        classic = { text: cs[1]!.trim(), n };
        continue;
      }
      const ks = text.startsWith('#') ? KIT_STEP.exec(text) : null;
      if (ks) {
        steps.set(ks[1]!, { text: ks[2]!.trim(), n });
        continue;
      }
      const p = text.includes('parse error') ? PARSE.exec(text) : null;
      if (p) {
        out.push({ kind: 'diagnostic', path: 'Dockerfile', line: Number(p[1]), message: `Dockerfile parse error: ${p[2]}`, tool: 'docker-build',
          severity: 'error', category: 'compile', weight: 1, logLine: n });
        continue;
      }
      const c = CLASSIC_FAIL.exec(text);
      const k = c ? null : KIT_ERROR.exec(text);
      if (!c && !k) continue;
      const step = c ? classic : steps.get(k![1]!);
      const message = c ? c[1]! : k![2]!;
      const run = RUN_EXIT.test(message);
      const s: Signal = { kind: 'diagnostic', message: step ? `${step.text}: ${message}` : message, tool: 'docker-build', severity: 'error',
        weight: run ? 0.4 : 0.8, logLine: n, related: step ? [step.n] : [] };
      // A COPY or ADD that finds nothing is the Dockerfile's error; a RUN's category is whatever failed inside it.
      if (!run) s.category = 'compile';
      // The instruction is the symbol: `COPY ./bin/hello /`, or the RUN's command.
      if (step) Object.assign(s, { path: 'Dockerfile', symbol: step.text });
      out.push(s);
    }
    return out;
  },
};
