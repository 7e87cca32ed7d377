import type { LogLine } from '../../types.js';

/** A Pipeline step's marker: `[Pipeline] sh`, `[Pipeline] { (Build)`, `[Pipeline] // stage`, `[Pipeline] End of Pipeline`. */
const MARKER = /^\[Pipeline\] /;
/** Declarative Pipeline's notice for a stage it did not run: `Stage "Deploy" skipped due to earlier failure(s)`. */
const SKIPPED = /^Stage ".+" skipped due to /;
/** A `parallel` block's notice for each branch that did not succeed: `Failed in branch Backend Dependencies`. */
const FAILED_BRANCH = /^Failed in branch \S/;
/**
 * Where a `node`, `ws` or `dir` step runs what follows: `Running on agent-1 in /home/jenkins/workspace/x`,
 * `Running in /home/jenkins/workspace/x/Hook`. The engine's note of a directory, not anything a tool said.
 */
const RUNNING_IN = /^Running (?:on .+ )?in [\/\w]/;
/** The step that prints the Jenkinsfile's own message. */
const ECHO = '[Pipeline] echo';

/**
 * The lines of a Pipeline console that Jenkins and the Jenkinsfile wrote about the run, not a tool about the
 * failure: the engine's `[Pipeline] …` step markers, the notices for skipped stages and failed `parallel`
 * branches, where a step runs (`Running in /…`), and what an `echo` step printed (the script author's own `Deployment failed, check the logs`,
 * up to the next step marker). A person quoting why a build failed quotes the tool's error inside the
 * stage, never these: they are the runner's lines, like the Actions runner's `##[group]` headings.
 * Only a Pipeline console has them; a freestyle console prints none of these shapes.
 */
export function jenkinsBookkeepingLines(lines: readonly LogLine[]): number[] {
  const out: number[] = [];
  let inEcho = false;
  for (const l of lines) {
    const t = l.text;
    if (MARKER.test(t)) {
      out.push(l.n);
      inEcho = t === ECHO;
    } else if (inEcho || SKIPPED.test(t) || FAILED_BRANCH.test(t) || RUNNING_IN.test(t)) out.push(l.n);
  }
  return out;
}
