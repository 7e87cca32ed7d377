import type { LogLine } from '../../types.js';

/**
 * A JVM frame, its class and method after the class loader's and module's prefixes
 * (`at PluginClassLoader for git-client//org.jenkinsci.plugins.gitclient.CliGitAPIImpl.launchCommandIn(…)`,
 * `at java.base/java.lang.Thread.run(…)`, `at WorkflowScript.run(WorkflowScript:38)`).
 */
const FRAME = /^\s*at\s+(PluginClassLoader for [^\s/]+\/)?(?:[\w.$-]*\/)*([\w$.<>-]+)\(/;
/** A trace's other lines: Jenkins' `Also:` / `Caused:` (printThrowable), Java's `Caused by:` / `Suppressed:`, `... N more`. */
const LINKED = /^\s*(?:(?:Also|Caused|Caused by|Suppressed):\s+([\w$.]+)|\.\.\. \d+ more$)/;
/**
 * Jenkins' own code: core (hudson, jenkins), plugins, remoting, the CPS interpreter of Pipeline scripts
 * and its sandbox. Only the parts of org.kohsuke and com.cloudbees that Jenkins is made of: projects use
 * org.kohsuke.args4j and org.kohsuke.github themselves.
 */
const JENKINS_CLASS = /^(?:hudson|jenkins|org\.jenkinsci|org\.jenkins|io\.jenkins|com\.cloudbees\.(?:groovy\.cps|plugins|jenkins|hudson)|org\.kohsuke\.(?:stapler|groovy\.sandbox)|___cps)\./;
/** The JVM's and Groovy's own frames: the runner's when Jenkins' code called them, neither side's alone. */
const PLATFORM_CLASS = /^(?:java|javax|jdk|sun|com\.sun|groovy|org\.codehaus\.groovy|kotlin)\./;

type Owner = 'jenkins' | 'platform' | 'project';

function ownerOf(cls: string, viaPluginLoader: boolean): Owner {
  if (viaPluginLoader || JENKINS_CLASS.test(cls)) return 'jenkins';
  return PLATFORM_CLASS.test(cls) ? 'platform' : 'project';
}

/** What one line of a trace is, or undefined when it is not one (cheap first test: a trace line starts `at`, `Also`, `Caused`, `Suppressed`, `...`). */
function traceLine(text: string): Owner | 'link' | undefined {
  const t = text.trimStart();
  const c = t.charCodeAt(0);
  if (c !== 97 && c !== 65 && c !== 67 && c !== 83 && c !== 46) return undefined;
  const f = FRAME.exec(t);
  if (f) return ownerOf(f[2]!, f[1] !== undefined);
  const l = LINKED.exec(t);
  if (!l) return undefined;
  return l[1] ? ownerOf(l[1], false) : 'link';
}

/**
 * The lines of Jenkins' own Java stack traces: what Jenkins printed about itself when a step failed
 * (the git plugin's `GitException` frames, remoting's `Also: Channel$CallSiteStackTrace`, the CPS
 * interpreter's frames under a Pipeline script's error). They are the runner's internals, not the
 * project's failure: a person quotes the message above them (`ERROR: Checkout failed`,
 * `stderr: fatal: …`, `java.lang.NoSuchMethodError: No such DSL method …`) and never the frames.
 *
 * A trace (a run of frame, `Also:` / `Caused:` and `... N more` lines) is Jenkins' when one of its
 * frames or linked exceptions is Jenkins' code; then its Jenkins and JVM/Groovy lines are marked. Its
 * project frames are kept: `at WorkflowScript.run(WorkflowScript:38)` is the Jenkinsfile the user wrote,
 * and a project's class under a plugin is the project's. A trace with no Jenkins frame (a test's
 * exception printed by Maven) is the project's and is left alone. The exception line that heads the
 * trace carries the message and is kept.
 */
export function jenkinsOwnTraceLines(lines: readonly LogLine[]): number[] {
  const out: number[] = [];
  let span: { n: number; owner: Owner | 'link' }[] = [];
  const flush = () => {
    if (span.some((x) => x.owner === 'jenkins')) for (const x of span) if (x.owner !== 'project') out.push(x.n);
    span = [];
  };
  for (const l of lines) {
    const owner = traceLine(l.text);
    if (owner === undefined) {
      if (span.length) flush();
      continue;
    }
    span.push({ n: l.n, owner });
  }
  flush();
  return out;
}
