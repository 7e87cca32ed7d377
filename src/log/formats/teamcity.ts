import { countLines, type CiFormatModule, type FormatInput, type Step, type StepKind } from './step.js';

/** A downloaded TeamCity build log: `[10:15:00]i: ` / `[10:15:00] :\t [Step 1/2] …` before each line. */
const PREFIX = /^\[\d\d:\d\d:\d\d\][ iWEF]?:\s*/;
const STEP_START = /^Step (\d+\/\d+): (.*)$/;
const STEP_TAG = /^\[Step (\d+\/\d+)\]\s*/;
const EXIT = /^Process exited with code (-?\d+)/;
const STEP_FAILED = /^Step .* failed$/;
/** Blocks, and test suites (a test reporter's steps), open and close like groups. */
const BLOCK_OPEN = /^##teamcity\[(?:blockOpened|testSuiteStarted) name='((?:[^'|]|\|.)*)'/;
const BLOCK_CLOSE = /^##teamcity\[(?:blockClosed|testSuiteFinished) name='((?:[^'|]|\|.)*)'/;
/** Service messages that fail a build: a failed test, or a build problem. */
const PROBLEM = /^##teamcity\[(?:testFailed|buildProblem|message [^\]]*status='(?:ERROR|FAILURE)')/;

/** The line without TeamCity's `[10:15:00]i: ` prefix; only a line starting with `[` can have one (cheap first test). */
const text = (raw: string) => (raw.charCodeAt(0) === 91 ? raw.replace(PREFIX, '') : raw);
const unescape = (s: string) => s.replace(/\|(.)/g, (_, c: string) => (c === 'n' ? ' ' : c));

function kindOf(name: string): StepKind {
  return /^(?:Updating sources|Collecting changes|The build is removed from the queue|Preparing|Resolving artifact dependencies)/.test(name) ? 'setup' : 'user';
}

/**
 * TeamCity. A downloaded build log names each build step (`Step 1/2: Build (Gradle)`) and tags its
 * lines `[Step 1/2]`; a failed step ends `Process exited with code N` and `Step Build (Gradle) failed`.
 * Tools that talk to TeamCity print service messages (`##teamcity[blockOpened name='…']`,
 * `##teamcity[testFailed …]`, `##teamcity[buildProblem …]`): blocks are steps, failures mark them.
 */
export const teamcity: CiFormatModule = {
  id: 'teamcity',
  ceiling: 0.9,
  failureOrder: 'last',
  detect({ lines }: FormatInput): number {
    const service = countLines(lines, (t) => text(t).startsWith('##teamcity['), 2);
    const tagged = countLines(lines, (t) => PREFIX.test(t) && STEP_TAG.test(text(t)), 2);
    return tagged >= 2 ? 0.9 : service >= 2 ? 0.85 : service || tagged ? 0.5 : 0;
  },
  steps({ lines, totalLines }: FormatInput): Step[] {
    const steps: Step[] = [];
    const open: Step[] = [];
    let current: Step | null = null;
    for (const l of lines) {
      let t = text(l.text);
      const tag = STEP_TAG.exec(t);
      if (tag) t = t.slice(tag[0].length);
      const start = STEP_START.exec(t);
      if (start && !tag) {
        if (current) current.endLine = l.n - 1;
        current = { name: start[2]!.trim(), startLine: l.n, endLine: totalLines, kind: 'user', errorLines: [] };
        steps.push(current);
        continue;
      }
      const block = BLOCK_OPEN.exec(t);
      if (block) {
        const name = unescape(block[1]!);
        const s: Step = { name, startLine: l.n, endLine: totalLines, kind: kindOf(name), errorLines: [] };
        open.push(s);
        steps.push(s);
        continue;
      }
      if (BLOCK_CLOSE.test(t)) {
        const s = open.pop();
        if (s) s.endLine = l.n;
        continue;
      }
      const owner = open[open.length - 1] ?? current;
      if (!owner) continue;
      const exit = EXIT.exec(t);
      if (exit) {
        owner.exitCode = Number(exit[1]);
        if (owner.exitCode !== 0) owner.errorLines.push(l.n);
      } else if (STEP_FAILED.test(t) || PROBLEM.test(t)) {
        owner.failed = true;
        owner.errorLines.push(l.n);
      }
    }
    return steps;
  },
};
