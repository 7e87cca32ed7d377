import { TRAVIS_COMMAND_MAX_LINES } from '../../limits.js';
import type { LogLine } from '../../types.js';
import { countLines, type CiFormatModule, type FormatInput, type Step, type StepKind } from './step.js';

/** `The command "npm test" exited with 1.`; install-phase commands say `failed and exited with 1 during .` */
const COMMAND_EXIT = /^The command "(.*)" (?:failed and )?exited with (\d+)(?: during [^.]*)?\.$/;
/**
 * The exit line names the phase: a set-up command (`before_install`, `install`, `before_script`) `failed and
 * exited with N during .`; a `script` command `exited with N.`.
 */
const SETUP_EXIT = /" failed and exited with \d+ during [^.]*\.$/;
/** The last line of a multi-line command's exit message (`fi`, then `" exited with 2.` on its own line). */
const COMMAND_EXIT_END = /^(.*)" (?:failed and )?exited with (\d+)(?: during [^.]*)?\.$/;
/** `travis_retry`'s own lines (`… failed. Retrying, 2 of 3.`, `… failed 3 times.`) are not exit lines. */
const RETRY_LINE = /" failed(?:\. Retrying, \d+ of \d+| \d+ times)\.$/;
/** The job hit Travis's time limit, or printed nothing for too long: the runner ended it (infra). */
const JOB_KILLED = /^The job exceeded the maximum time limit for jobs, and has been terminated\.$|^No output has been received in the last [^,]+, this potentially indicates a stalled build or something wrong with the build itself\.$/;
/**
 * travis-build's own verdicts that end a job with no `The command "…" exited with N.` line: its built-in
 * `script` for a language runs the check with its status kept (`R CMD check …; CHECK_RET=$?`), prints the
 * check's logs in folds of its own, then fails the job with one of these lines (`sh.failure`). Each names
 * the command whose status it reports: that command is the failing step, not the log dumps after it.
 */
const TRAVIS_VERDICTS: readonly { line: RegExp; command: RegExp }[] = [
  { line: /^R CMD check failed$/, command: /^R CMD check\b/ },
  { line: /^Found warnings, treating as errors \(as requested\)\.$/, command: /^R CMD check\b/ },
];
/** Folds whose commands run after the outcome is decided: never the cause. */
const POST_FOLD = /^(?:after_failure|after_script|after_success|before_cache|cache\.(?!1$)\d+|deploy|before_deploy|after_deploy)(?:\.\d+)?$/;
/** Folds of Travis's own preparation and of the project's install phases. */
const SETUP_FOLD = /^(?:worker_info|system_info|docker_mtu|resolvconf|apt|git\.|fix\.|update_|nvm\.|rvm|install_jdk|services|before_install|install|before_script|cache\.(?:1|[a-z]+)$)/;

/** `cache.1` (and `cache.npm`, `cache.yarn` right after it) restore the cache; `cache.2` stores it. */
function foldKind(name: string): StepKind {
  if (POST_FOLD.test(name)) return 'post';
  return SETUP_FOLD.test(name) ? 'setup' : 'user';
}

/**
 * Travis CI job logs: `travis_fold:start:<name>` around each phase (`install.1`, `after_failure`,
 * `cache.2`), `travis_time:start:<id>` around each command (printed as `$ cmd` on its start line), and
 * `The command "cmd" exited with N.` after each `script` command. Every script command runs whatever the
 * one before returned, so the cause is the first command with N ≠ 0, not the last command of the job.
 */
export const travis: CiFormatModule = {
  id: 'travis',
  ceiling: 0.95,
  failureOrder: 'first',
  detect({ lines, sections }: FormatInput): number {
    if (sections.some((m) => m.ci === 'travis')) return 0.95;
    // A one-line exit message, or the first line of a multi-line one (its end is read by `steps`).
    const exits = countLines(lines, (t) => t.startsWith('The command "') && (COMMAND_EXIT.test(t) || !t.includes('" ')), 1);
    const done = countLines(lines, (t) => t.startsWith('Done. Your build exited with '), 1);
    // A copy without the markers (a bot's excerpt) still ends with Travis's own words.
    const killed = countLines(lines, (t) => t.startsWith('The job ') || t.startsWith('No output has been received') ? JOB_KILLED.test(t) : false, 1);
    return exits && done ? 0.8 : exits || done || killed ? 0.5 : 0;
  },
  steps({ lines, sections, totalLines }: FormatInput): Step[] {
    const steps: Step[] = [];
    const open = new Map<string, Step>();
    const textAt = new Map(lines.map((l) => [l.n, l.text]));
    const folds: Step[] = [];
    for (const m of sections) {
      if (m.ci !== 'travis') continue;
      const key = (m.timer ? 'time:' : '') + m.name;
      if (m.kind === 'start') {
        // A Travis timer wraps one command, printed on its start line (`$ python -m unittest`) or, in
        // later logs, on the line after it.
        const command = (n: number) => /^\$ (.+)$/.exec(textAt.get(n) ?? '')?.[1]?.trim();
        const name = m.timer ? (command(m.n) ?? command(m.n + 1) ?? m.name) : m.name;
        // A fold that closed on this very line (`travis_fold:end:install` then the script's timer, one line
        // in a copy whose `\r`s were kept) is not this command's fold.
        const fold = m.timer ? [...folds].reverse().find((f) => open.get(f.name) === f || f.endLine > m.n) : undefined;
        const kind: StepKind = m.timer ? (fold ? fold.kind : 'user') : foldKind(m.name);
        const s: Step = { name, startLine: m.n, endLine: totalLines, kind, errorLines: [] };
        open.set(key, s);
        steps.push(s);
        if (!m.timer) folds.push(s);
      } else {
        const s = open.get(key);
        if (s) s.endLine = m.n;
        open.delete(key);
      }
    }
    // A log copied without its markers (a paste, a bot's excerpt): each command is the stretch from its
    // `$ cmd` echo (the last one before its exit line: setup commands echo without an exit line) to its
    // own exit line.
    const marked = steps.length > 0;
    let lastEcho: number | undefined;
    let afterExit = lines[0]?.n ?? 1;
    for (let i = 0; i < lines.length; i++) {
      const l = lines[i]!;
      const t = l.text;
      if (!marked && t.startsWith('$ ')) lastEcho = l.n;
      const exit = t.startsWith('The command "') ? readExit(lines, i) : null;
      const killed = !exit && t.length < 200 && JOB_KILLED.test(t);
      if (!exit && !killed) {
        if (marked && t.length < 200) markVerdict(steps, folds, l);
        continue;
      }
      const at = exit ? lines[exit.last]!.n : l.n;
      if (exit) i = exit.last;
      let owner: Step | undefined;
      if (marked) {
        // The exit line follows its command's timer: the last command (not fold) that started before it.
        const commands = steps.filter((s) => s.startLine <= l.n && !folds.includes(s));
        owner = commands[commands.length - 1] ?? [...steps].reverse().find((s) => s.startLine <= l.n);
        // Travis runs some of its own commands without a timer (`jdk_switcher use …`, echoed as `$ cmd` after
        // the previous command's timer closed): an exit line naming such a command belongs to its echo, not
        // to the timed command before it.
        if (exit && owner && !exit.command.includes('\n') && owner.name !== exit.command.trim()) {
          const echo = untimedEcho(lines, i, owner, exit.command.trim());
          if (echo !== undefined) {
            owner = { name: exit.command.trim(), startLine: echo, endLine: at, kind: 'user', errorLines: [] };
            steps.push(owner);
          }
        }
      }
      if (!owner && (!marked || killed)) {
        // No markers (or a time limit outside every command): one step, up to the line that says how it ended.
        const name = exit ? exit.command.split('\n')[0]!.trim() : 'job';
        owner = { name, startLine: lastEcho ?? afterExit, endLine: at, kind: 'user', errorLines: [] };
        steps.push(owner);
      }
      lastEcho = undefined;
      afterExit = at + 1;
      if (!owner) continue;
      if (exit) {
        // Travis's own word on the phase outranks the fold read from the markers, which a copy that kept its
        // `\r`s can misplace (the `before_script` fold closing on the `script` command's timer line).
        if (owner.kind !== 'post') owner.kind = exit.setup ? 'setup' : 'user';
        owner.exitCode = exit.code;
        if (owner.exitCode === 0) continue;
      } else owner.failed = true;
      owner.errorLines.push(at);
      // The step is the stretch from its command to the line that says how it ended.
      if (owner.endLine < at) owner.endLine = at;
    }
    markCutCommand(steps, open, lines, folds);
    return steps;
  },
};

/**
 * A travis-build verdict line (TRAVIS_VERDICTS) marks failed the last command it names that started
 * before it; the step runs to the verdict, which says how it ended.
 */
function markVerdict(steps: Step[], folds: readonly Step[], l: LogLine): void {
  const verdict = TRAVIS_VERDICTS.find((v) => v.line.test(l.text.trim()));
  if (!verdict) return;
  const owner = [...steps].reverse().find((s) => s.startLine < l.n && !folds.includes(s) && s.kind === 'user' && verdict.command.test(s.name));
  if (!owner) return;
  owner.failed = true;
  owner.errorLines.push(l.n);
  if (owner.endLine < l.n) owner.endLine = l.n;
}

/** Travis's last line of a job that ran to its end, whatever the outcome. */
const JOB_DONE = /^Done\. Your build exited with \d+\.$/;

/**
 * A log that stops while a command runs (a copy cut short, a job whose log upload was cut off) says
 * nothing about how that command ended, and no command before it failed: the command still running at the
 * cut is the one to read. Its timer never closed and no `Done. Your build exited with N.` follows. Marked
 * failed only when no other step failed, and never a setup or post command.
 */
function markCutCommand(steps: Step[], open: ReadonlyMap<string, Step>, lines: readonly LogLine[], folds: readonly Step[]): void {
  if (steps.some((s) => s.failed || (s.exitCode !== undefined && s.exitCode !== 0))) return;
  for (let i = lines.length - 1; i >= 0 && i >= lines.length - JOB_DONE_TAIL; i--) if (JOB_DONE.test(lines[i]!.text)) return;
  const running = [...open.entries()].filter(([k, s]) => k.startsWith('time:') && s.kind === 'user').map(([, s]) => s);
  const last = running[running.length - 1];
  if (last) {
    last.failed = true;
    return;
  }
  // The copy ends inside the exit message of the command that ran last (`The command "…/bin/rake" test` cut
  // before `exited with N.`): that command ran to its end and its verdict was lost with the cut, so it is
  // the one to read, as a command still running at the cut is.
  const tail = [...lines].reverse().find((l) => l.text.trim() !== '');
  if (!tail || !tail.text.startsWith('The command "') || COMMAND_EXIT.test(tail.text)) return;
  const owner = [...steps].reverse().find((s) => s.startLine < tail.n && s.kind === 'user' && !folds.includes(s));
  if (!owner) return;
  owner.failed = true;
  if (owner.endLine < tail.n) owner.endLine = tail.n;
}
/** How far from the log's end Travis's closing line is looked for: the cache upload and `after_*` phases print after it only rarely, and briefly. */
const JOB_DONE_TAIL = 200;

/**
 * The line number of the `$ command` echo of an untimed command: the last echo of exactly `command` after
 * the timed step `owner` closed and before the exit line at lines[i] (looking back at most
 * TRAVIS_COMMAND_MAX_LINES lines), or undefined when the exit line is the owner's own.
 */
function untimedEcho(lines: readonly LogLine[], i: number, owner: Step, command: string): number | undefined {
  const echo = `$ ${command}`;
  for (let j = i - 1; j >= 0 && j >= i - TRAVIS_COMMAND_MAX_LINES; j--) {
    const l = lines[j]!;
    if (l.n <= owner.startLine || l.n < owner.endLine) return undefined;
    if (l.text.trim() === echo) return l.n;
  }
  return undefined;
}

/**
 * The exit message starting at lines[i]: `The command "npm test" exited with 1.` on one line, or, for a
 * `script:` block, `The command "if …; then` … `fi` … `" exited with 2.` over several (at most
 * TRAVIS_COMMAND_MAX_LINES). `last` is the index of the line that carries the exit code.
 */
function readExit(lines: readonly LogLine[], i: number): { command: string; code: number; last: number; setup: boolean } | null {
  const first = lines[i]!.text;
  const one = COMMAND_EXIT.exec(first);
  if (one) return { command: one[1]!, code: Number(one[2]), last: i, setup: SETUP_EXIT.test(first) };
  if (RETRY_LINE.test(first)) return null;
  const parts = [first.slice('The command "'.length)];
  for (let j = i + 1; j < lines.length && j <= i + TRAVIS_COMMAND_MAX_LINES; j++) {
    const t = lines[j]!.text;
    // Another message starts: this one never ended (a cut log).
    if (t.startsWith('The command "')) return null;
    const end = t.includes('exited with ') ? COMMAND_EXIT_END.exec(t) : null;
    if (end) return { command: [...parts, end[1]!].join('\n'), code: Number(end[2]), last: j, setup: SETUP_EXIT.test(t) };
    parts.push(t);
  }
  return null;
}
