import { jenkinsBookkeepingLines } from './jenkins-bookkeeping.js';
import { jenkinsOwnTraceLines } from './jenkins-own-traces.js';
import { countLines, type CiFormatModule, type FormatInput, type Step, type StepKind } from './step.js';

/** The Timestamper plugin's prefixes: `23:26:05  `, `[2024-01-02T10:11:12.345Z] `. */
const TIMESTAMP = /^(?:\d\d:\d\d:\d\d(?:\.\d+)?\s+|\[\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(?:[.,]\d+)?Z?\]\s*)/;
const FINISHED = /^Finished: (SUCCESS|FAILURE|UNSTABLE|ABORTED|NOT_BUILT)$/;
const MARKED = /^Build step '(.+)' marked build as failure$/;
/**
 * A post-build publisher that failed after the build steps passed: `Build step 'Publish HTML reports' changed
 * build result to FAILURE` (the HTML Publisher could not copy its report). Its own lines come just before:
 * tagged with its name (`[htmlpublisher] Archiving …`) or Jenkins' `ERROR: …`.
 */
const CHANGED = /^Build step '(.+)' changed build result to FAILURE$/;
/** A publisher's own line: `[htmlpublisher] …` (not a build tool's `[INFO]`/`[WARNING]` level), or `ERROR: …`. */
const PUBLISHER_LINE = /^(?:\[(?!(?:INFO|WARNING|WARN|ERROR|DEBUG)\])[^\]\n]{1,40}\] |ERROR: )/;
const SCRIPT_EXIT = /^ERROR: script returned exit code (-?\d+)$/;
/**
 * Jenkins' own abort of a freestyle build outside any build step's script (the SCM checkout, the agent's
 * channel): `FATAL: java.io.StreamCorruptedException: …`, `FATAL: Couldn't find any revision to build`.
 * No `Build step '…' marked build as failure` follows, so this line is what says the step failed.
 */
const JENKINS_FATAL = /^FATAL: \S/;
/** A freestyle build step: `[job] $ /bin/sh -xe /tmp/jenkins123.sh`, `[job] $ cmd /c call …bat`, Maven. */
const CLASSIC_STEP = /^(?:\[[^\]]+\] )?\$ (?:\/bin\/(?:ba)?sh -xe \/tmp\/jenkins\d+\.sh|cmd \/c call \S+jenkins\d+\.bat|(?:cmd(?:\.exe)? \/[cC] \"?)?\S*(?:mvn|gradlew?|ant)\b.*)$/;
/** A Pipeline job read its script from the SCM (`Obtained Jenkinsfile from git https://…`): the checkout is done. */
const OBTAINED = /^Obtained \S+ from /;
const SKIPPED = /^Stage "(.+)" skipped due to (?:earlier failure\(s\)|when conditional)$/;
/** A `parallel` block's notice, printed when a branch ends without success: `Failed in branch Build UI`. */
const FAILED_BRANCH = /^Failed in branch (.+)$/;
/**
 * What a stage prints of itself when its steps say nothing: the engine's markers, a step's `Running in /…`
 * note, a shell's trace of the command it runs (`+ set +xe`), a timestamp alone.
 */
const SILENT = /^(?:\[Pipeline\] |Running (?:on .+ )?in [\/\w]|\+ |\s*$)/;
/** A Pipeline step that runs a command on the agent. */
const COMMAND_STEP = /^\[Pipeline\] (?:sh|bat|powershell|pwsh)$/;
/**
 * An error a step reported: Jenkins' own `ERROR: …`, or a plugin step's, which tags its lines with its
 * name (`[Security Scan] ERROR: Workflow failed! Exit code 2`). A console copied while the post actions
 * ran has no `Finished:` line, so these are what say the stage failed.
 */
const STEP_ERROR = /^(?:\[[^\]\n]{1,80}\] )?ERROR: /;

/** The line without its timestamp; only a line starting with a digit or `[` can have one (cheap first test). */
const text = (raw: string) => {
  const c = raw.charCodeAt(0);
  return (c >= 48 && c <= 57) || c === 91 ? raw.replace(TIMESTAMP, '') : raw;
};

function stageKind(name: string): StepKind {
  if (/^Declarative: Post Actions$/.test(name)) return 'post';
  if (/^Declarative: (?:Checkout SCM|Tool Install|Agent Setup)$/.test(name)) return 'setup';
  return 'user';
}

/**
 * Jenkins console output. Pipeline jobs: `[Pipeline] stage` then `[Pipeline] { (Name)` opens a stage,
 * `[Pipeline] // stage` closes it; stages after a failure print `Stage "X" skipped due to earlier
 * failure(s)`; `ERROR: script returned exit code N` and `Finished: FAILURE` come at the very end. A
 * failure stops the pipeline, so the failing stage is the last stage that ran. Freestyle jobs: each
 * `$ /bin/sh -xe /tmp/jenkinsN.sh` is a build step; `Build step 'Execute shell' marked build as failure`
 * ends the one that failed, and what follows (archiving, mail) is post-build.
 */
export const jenkins: CiFormatModule = {
  id: 'jenkins',
  ceiling: 0.9,
  failureOrder: 'last',
  detect({ lines }: FormatInput): number {
    // One pass; a line is tested further only when its first character can start a Jenkins line
    // (`[Pipeline] `, `Finished: `, `Build step '`, `Started by `, `Building …`): most logs are not Jenkins'.
    let pipeline = 0;
    let classic = 0;
    for (const l of lines) {
      const s = text(l.text);
      const c = s.charCodeAt(0);
      if (c === 91) {
        if (s.startsWith('[Pipeline] ') && ++pipeline >= 2) return 0.9;
      } else if ((c === 70 || c === 66 || c === 83) && classic < 2) {
        if (FINISHED.test(s) || MARKED.test(s) || s.startsWith('Started by ') || s.startsWith('Building in workspace ') || s.startsWith('Building remotely on ')) classic++;
      }
    }
    return classic >= 2 ? 0.85 : classic ? 0.5 : 0;
  },
  steps(input: FormatInput): Step[] {
    const pipeline = countLines(input.lines, (t) => text(t).startsWith('[Pipeline] '), 2) >= 2;
    return pipeline ? stages(input) : classicSteps(input);
  },
  runnerLines: (lines) => {
    const read = lines.map((l) => ({ n: l.n, text: text(l.text) }));
    return [...jenkinsOwnTraceLines(read), ...jenkinsBookkeepingLines(read)];
  },
};

function stages({ lines, totalLines }: FormatInput): Step[] {
  const steps: Step[] = [];
  const open: Step[] = [];
  let afterStage = false;
  let failedBuild = false;
  const skipped = new Set<Step>();
  let scriptExit: { n: number; code: number } | undefined;
  // The first command run outside every stage since the last stage closed (a scripted pipeline's body, a
  // declarative `agent { docker … }` pulling its image): a failure there is in no stage.
  let unstaged: number | undefined;
  let endOfPipeline: number | undefined;
  // Every stage opened, by name: a `parallel` block's branches open their stages one after another, so the
  // innermost open stage is not always the one a later line belongs to.
  const byName = new Map<string, Step>();
  // The first `parallel` branch that ran and failed (`Failed in branch X` for a stage X that was not skipped).
  let failedBranch: Step | undefined;
  // Each stage's enclosing stage, and the stages whose own lines said something (not SILENT).
  const parentOf = new Map<Step, Step>();
  const printed = new Set<Step>();
  for (const l of lines) {
    const t = text(l.text);
    if (t === '[Pipeline] End of Pipeline') endOfPipeline = l.n;
    if (t === '[Pipeline] stage') {
      afterStage = true;
      unstaged = undefined;
      continue;
    }
    if (!open.length && unstaged === undefined && COMMAND_STEP.test(t)) unstaged = l.n;
    const opened = afterStage ? /^\[Pipeline\] \{ \((.+)\)$/.exec(t) : null;
    afterStage = false;
    if (opened) {
      const name = opened[1]!;
      const s: Step = { name, startLine: l.n, endLine: totalLines, kind: stageKind(name), errorLines: [] };
      // A parent stage (sequential / parallel stages inside it) is not a step of its own.
      const parent = open[open.length - 1];
      if (parent) parentOf.set(s, parent);
      if (parent && steps.includes(parent)) steps.splice(steps.indexOf(parent), 1);
      open.push(s);
      steps.push(s);
      if (!byName.has(name)) byName.set(name, s);
      continue;
    }
    if (t === '[Pipeline] // stage') {
      const s = open.pop();
      if (s && s !== failedBranch) s.endLine = l.n;
      continue;
    }
    if (open.length && !SILENT.test(t)) printed.add(open[open.length - 1]!);
    const skip = SKIPPED.exec(t);
    if (skip && open.length) skipped.add(skippedStage(open, skip[1]!));
    const branch = FAILED_BRANCH.exec(t);
    const failed = branch ? byName.get(branch[1]!) : undefined;
    if (failed && !failedBranch && !skipped.has(failed)) {
      // The branches' lines interleave and their `// stage` closes cannot be told apart, but Jenkins names the
      // branch that failed as it ends: that stage is the failing one, and it ran up to this notice. Opened
      // after its siblings, it may have been taken for their child and dropped as a parent: it is a step.
      failedBranch = failed;
      failed.endLine = l.n - 1;
      if (!steps.includes(failed)) steps.push(failed);
    }
    const exit = SCRIPT_EXIT.exec(t);
    if (exit) scriptExit = { n: l.n, code: Number(exit[1]) };
    const fin = FINISHED.exec(t);
    if (fin && fin[1] !== 'SUCCESS') failedBuild = true;
    if (open.length && STEP_ERROR.test(t)) open[open.length - 1]!.errorLines.push(l.n);
  }
  const ran = steps.filter((s) => !skipped.has(s));
  for (const s of skipped) if (steps.includes(s)) steps.splice(steps.indexOf(s), 1);
  if (unstaged !== undefined && (failedBuild || scriptExit)) {
    // Commands ran after the last stage closed and the build failed: they failed, not the stage before them.
    // It ends where the pipeline does: Jenkins' own closing lines (`ERROR: script returned …`) restate the exit.
    const end = (endOfPipeline ?? scriptExit?.n ?? totalLines + 1) - 1;
    const s: Step = { name: 'pipeline (outside any stage)', startLine: unstaged, endLine: Math.max(unstaged, end), kind: 'user', errorLines: [], failed: true };
    if (scriptExit) {
      s.errorLines.push(scriptExit.n);
      s.exitCode = scriptExit.code;
    }
    for (const x of steps) x.errorLines = [];
    steps.push(s);
    return steps;
  }
  // The pipeline stops at the failure: the last stage that ran (not a post-actions stage) failed.
  let last = failedBranch ?? [...ran].reverse().find((s) => s.kind !== 'post');
  // A nested stage that printed nothing but its steps' markers and the shell's trace of their commands ran
  // clean: the failure its enclosing stage ended on was that stage's own (a hook's ant build that failed
  // before the nested stage ran, the exception thrown after it). The enclosing stage, which printed, failed.
  const parent = last && !failedBranch && !printed.has(last) ? parentOf.get(last) : undefined;
  if (last && parent && printed.has(parent) && !skipped.has(parent)) {
    steps.splice(steps.indexOf(last), 1, parent);
    last = parent;
  }
  // A console that ends inside a stage (no `// stage`, no `End of Pipeline`, no `Finished:`) was copied or
  // cut while that stage ran: the stage it stops in is the one the reader brought it for.
  const cutInside = last !== undefined && open.includes(last) && endOfPipeline === undefined;
  if (last && (failedBuild || scriptExit || last.errorLines.length || cutInside)) {
    last.failed = true;
    if (scriptExit) {
      last.errorLines.push(scriptExit.n);
      last.exitCode = scriptExit.code;
    }
  }
  // Only the stage that stopped the pipeline carries the failure; earlier ERROR: lines were survived.
  for (const s of steps) if (s !== last) s.errorLines = [];
  return steps;
}

/**
 * The open stage a `Stage "X" skipped …` notice is about: the one named X. The branches of a `parallel`
 * block open their stages one after another before any of them runs (`{ (Backend)`, `{ (Frontend)`, then
 * `Stage "Backend" skipped …`), so the innermost open stage is not always the one skipped; the notice names it.
 */
function skippedStage(open: readonly Step[], name: string): Step {
  for (let i = open.length - 1; i >= 0; i--) if (open[i]!.name === name) return open[i]!;
  return open[open.length - 1]!;
}

function classicSteps({ lines, totalLines }: FormatInput): Step[] {
  const first = lines[0]?.n ?? 1;
  const steps: Step[] = [{ name: 'checkout', startLine: first, endLine: totalLines, kind: 'setup', errorLines: [] }];
  let current = steps[0]!;
  let post = false;
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    const t = text(l.text);
    if (!post && current.kind === 'setup' && steps.length === 1 && OBTAINED.test(t)) {
      // A Pipeline job whose console shows no stage (its Jenkinsfile failed to compile: `startup failed`,
      // `WorkflowScript: 73: …`): once the script is obtained the checkout is over, and what follows is the
      // pipeline script's own run, a user step, so its compile error is not read as the checkout's.
      current.endLine = l.n;
      current = { name: 'pipeline script', startLine: l.n + 1, endLine: totalLines, kind: 'user', errorLines: [] };
      steps.push(current);
      continue;
    }
    if (!post && CLASSIC_STEP.test(t)) {
      current.endLine = l.n - 1;
      current = { name: t.replace(/^\[[^\]]+\] \$ /, '').replace(/^\$ /, ''), startLine: l.n, endLine: totalLines, kind: 'user', errorLines: [] };
      steps.push(current);
      continue;
    }
    const marked = MARKED.exec(t);
    if (marked) {
      current.failed = true;
      if (current.kind === 'setup') {
        // No build step's start was seen (Jenkins cut the console's head: `[...truncated 9.25 KB...]`):
        // what is left, up to the mark, is the step that failed.
        current.kind = 'user';
        current.name = marked[1]!;
      }
      current.name = current.kind === 'user' && current.name.includes('/tmp/jenkins') ? marked[1]! : current.name;
      current.errorLines.push(l.n);
      current.endLine = l.n;
      post = true;
      current = { name: 'post-build actions', startLine: l.n + 1, endLine: totalLines, kind: 'post', errorLines: [] };
      steps.push(current);
      continue;
    }
    const changed = !post ? CHANGED.exec(t) : null;
    if (changed) {
      // The build steps passed; the publisher's own lines, just above its notice, are the step that failed.
      let start = i;
      while (start > 0 && PUBLISHER_LINE.test(text(lines[start - 1]!.text))) start--;
      const from = lines[start]!.n;
      if (from > current.startLine) current.endLine = from - 1;
      current = { name: changed[1]!, startLine: from, endLine: l.n, kind: 'user', errorLines: [l.n], failed: true };
      steps.push(current);
      post = true;
      current = { name: 'post-build actions', startLine: l.n + 1, endLine: totalLines, kind: 'post', errorLines: [] };
      steps.push(current);
      continue;
    }
    if (!post && JENKINS_FATAL.test(t) && !steps.some((s) => s.failed)) {
      current.failed = true;
      current.errorLines.push(l.n);
      continue;
    }
    const fin = FINISHED.exec(t);
    if (fin) {
      current.endLine = l.n - 1;
      if (fin[1] !== 'SUCCESS' && !steps.some((s) => s.failed) && current.kind !== 'post') {
        current.failed = true;
        current.errorLines.push(l.n);
      }
    }
  }
  return steps.filter((s) => s.endLine >= s.startLine);
}
