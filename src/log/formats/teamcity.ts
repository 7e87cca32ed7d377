import { countLines, type CiFormatModule, type FormatInput, type Step, type StepKind } from './step.js';

/**
 * A downloaded TeamCity build log: `[10:15:00]i: ` / `[10:15:00] :\t [Step 1/2] …` before each line; a log
 * copied from the build page (and older servers' downloads) has the time alone: `[10:50:24][mocha.suite] …`.
 */
const PREFIX = /^\[\d\d:\d\d:\d\d\](?:[ iWEF]?:)?\s*/;
/**
 * A build-page copy from newer servers has the time without brackets and nests by indenting:
 * `06:12:42 Step 2/2: build (Command Line)`, then `06:12:42   Starting: …` for the step's own lines
 * (cleanLine has already cut the time of the indented ones: it reads as Jenkins' clock form).
 */
const CLOCK = /^\d\d:\d\d:\d\d +/;
/** A line inside a block of the agent's own (`[mocha.suite] Process exited …`, `[Publishing internal artifacts] …`). */
const BLOCK_TAG = /^\[([^\]\n]{1,200})\] /;
/** What only TeamCity's agent prints about a step's process and the build. */
const AGENT_LINE = /^(?:Process exited with code -?\d+|Publishing internal artifacts|Build finished|Starting: \S|in directory: \S)/;
const STEP_START = /^Step (\d+\/\d+): (.*)$/;
const STEP_TAG = /^\[Step (\d+\/\d+)\]\s*/;
const EXIT = /^Process exited with code (-?\d+)/;
const STEP_FAILED = /^Step .* failed$/;
/** Blocks, and test suites (a test reporter's steps), open and close like groups. */
const BLOCK_OPEN = /^##teamcity\[(?:blockOpened|testSuiteStarted) name='((?:[^'|]|\|.)*)'/;
const BLOCK_CLOSE = /^##teamcity\[(?:blockClosed|testSuiteFinished) name='((?:[^'|]|\|.)*)'/;
/** Service messages that fail a build: a failed test, or a build problem. */
const PROBLEM = /^##teamcity\[(?:testFailed|buildProblem|message [^\]]*status='(?:ERROR|FAILURE)')/;

/**
 * The line without TeamCity's `[10:15:00]i: ` or `06:12:42 ` prefix and without the indentation that
 * nests it; only a line starting with `[`, a digit or a space can have either (cheap first test).
 */
const text = (raw: string) => {
  const c = raw.charCodeAt(0);
  if (c === 91) return raw.replace(PREFIX, '');
  if (c >= 48 && c <= 57) return raw.replace(CLOCK, '');
  return c === 32 || c === 9 ? raw.trimStart() : raw;
};
/** The text without a leading block tag (`[mocha.suite] Process exited …` → `Process exited …`). */
const untag = (t: string) => (t.charCodeAt(0) === 91 ? t.replace(BLOCK_TAG, '') : t);
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
    // One pass, and only lines starting `#` or `[` are read further: most logs are not TeamCity's.
    let service = 0;
    let tagged = 0;
    let agent = 0;
    let clockSteps = 0;
    let nested = 0;
    for (const l of lines) {
      const raw = l.text;
      const c = raw.charCodeAt(0);
      if (c === 35) {
        if (raw.startsWith('##teamcity[')) service++;
      } else if (c >= 48 && c <= 57) {
        // A newer build-page copy: `06:12:42 Step 2/2: build (Command Line)` heads each step.
        if (CLOCK.test(raw) && STEP_START.test(text(raw))) clockSteps++;
      } else if (c === 32 || c === 9) {
        // …and its indented lines are the agent's (`Starting: …`, `Process exited with code 1`).
        if (AGENT_LINE.test(raw.trimStart()) || STEP_FAILED.test(raw.trimStart())) nested++;
      } else if (c === 91 && PREFIX.test(raw)) {
        const t = text(raw);
        if (t.startsWith('##teamcity[')) service++;
        else if (STEP_TAG.test(t)) tagged++;
        // A build-page copy without step tags: the time prefix and the agent's own lines (`Process
        // exited with code 2`, `Publishing internal artifacts`, `Build finished`), in or out of a block tag.
        else if (AGENT_LINE.test(untag(t))) agent++;
      }
      if (tagged >= 2) return 0.9;
    }
    if (service >= 2) return 0.85;
    if (agent >= 2 || (clockSteps && nested >= 2)) return 0.6;
    return service || tagged ? 0.5 : 0;
  },
  steps({ lines, totalLines }: FormatInput): Step[] {
    const steps: Step[] = [];
    const open: Step[] = [];
    let current: Step | null = null;
    const byName = new Map<string, Step>();
    let lastText: { n: number; text: string; inBlock: boolean } | undefined;
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
      let owner = open[open.length - 1] ?? current;
      const agentBlock = !tag && !owner && t.charCodeAt(0) === 91 ? BLOCK_TAG.exec(t) : null;
      let inBlock = false;
      if (agentBlock) {
        // No step header in the copy: the agent's `[name] …` lines belong to the block `name`, which
        // opened on the line that reads just `name` (`[10:50:24]mocha.suite`). A block opened inside
        // another (`[mocha.suite] Publishing internal artifacts`) is part of it, not a step of its own.
        const name = agentBlock[1]!;
        let s = byName.get(name);
        if (!s) {
          const opened = lastText?.text === name ? lastText : undefined;
          s = { name, startLine: opened?.n ?? l.n, endLine: l.n, kind: kindOf(name), errorLines: [] };
          byName.set(name, s);
          if (!opened?.inBlock) steps.push(s);
        }
        s.endLine = l.n;
        t = t.slice(agentBlock[0].length);
        owner = s;
        inBlock = true;
      }
      lastText = { n: l.n, text: t, inBlock };
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
