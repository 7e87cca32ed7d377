import { DIAGNOSIS_VERSION, type BlamedRange, type Category, type Diagnosis, type Finding, type LogLine, type Signal } from './types.js';
import type { LogSource } from './log/open-log.js';
import type { LogScan } from './log/scan-log.js';
import { readLog } from './log/read-log.js';
import { fetchesSources, findFailingStep, type StepLayout } from './log/find-failing-step.js';
import { extractSignals } from './extract/extract-signals.js';
import { classify } from './extract/classify.js';
import { categoriseEvidence } from './extract/categorise-evidence.js';
import { openWorkspace, type Workspace } from './repo/workspace.js';
import { gitDiff, type PrDiff } from './repo/diff.js';
import { candidatesFromSignals } from './locate/from-signals.js';
import { belowTestLine, candidatesFromDiff } from './locate/blame-change.js';
import type { symbolGraphFor as SymbolGraphFor } from './locate/blame-graph.js';
import { candidatesFromTestGraph } from './locate/test-graph.js';
import { candidatesFromTestedCode, liftTestedHunks } from './locate/tested-code.js';
import { candidatesFromQuotedName } from './locate/quoted-name.js';
import { candidatesFromInheritedTest } from './locate/inherited-test.js';
import { candidatesFromNullCaller } from './locate/null-from-caller.js';
import { candidatesFromNullSource } from './locate/null-source.js';
import { candidatesFromCallSignature } from './locate/call-signature.js';
import { candidatesFromIdentifiers } from './locate/from-identifiers.js';
import { linesAroundBlocks, signalsNamingCheckoutFiles } from './locate/named-files.js';
import { mergeCandidates, type Candidate } from './locate/candidate.js';
import { verifyCandidate, type Verified } from './locate/verify.js';
import { rankCandidates } from './locate/rank.js';
import { looksBinary } from './evidence/looks-binary.js';
import { findEvidence, signalsFromBlocks, type Block, type Selection } from './evidence/index.js';
import { isConfigFile, namedByFailure } from './locate/config-files.js';
import { summarise } from './report/summary.js';
import { MAX_FINDINGS, MAX_STEP_LINES_FOR_MATCHERS, MIN_CONFIDENCE } from './limits.js';
import type { AgentSummary, LlmRequest } from './locate/agent/index.js';
import { compareWithHistory, type HistoryFacts } from './evidence/history-status.js';
import type { PassingSide } from './evidence/passing-diff.js';

/** What a door hands the core: a log, and optionally the checkout and the PR's changes. */
export interface DiagnoseRequest {
  log: LogSource;
  /** The checked-out repository at the failing commit. */
  repo?: string;
  /** The PR's base ref: changed lines are `git diff <base>...HEAD` in `repo`. */
  base?: string;
  /** The PR's changes when they come from elsewhere (the App reads them from the PR files API). */
  diff?: PrDiff;
  /** Use the tree-sitter call graph to blame a failing test on the change it reaches (default true). */
  graph?: boolean;
  /** Progress for people on a TTY; never called with anything that matters for the result. */
  onProgress?: (message: string) => void;
  /** LLM mode: a model refines the pin with the bounded tools (needs `repo`). Off when absent. */
  llm?: LlmRequest;
  /** A passing log of the same job (issue 15): its new lines are evidence, the lines it shares are not causes. */
  passingLog?: PassingSide;
  /** What the door found about the job's other runs (github/history.ts): pre-existing, flaky, last green. */
  history?: HistoryFacts;
  /** The door's name for the job ("<workflow> / <job>"), checked against the passing log's. */
  jobName?: string;
  /**
   * The commits since the last green run of the job (github/history.ts: GitHub's compare), blamed for a
   * push (no `diff`) or when the PR's diff reaches none of the candidates. Never for pre-existing or flaky.
   */
  priorDiff?: { diff: PrDiff; range: Omit<BlamedRange, 'why'> };
}

/** Everything the pipeline saw, for the `--artifacts` trace and for tests that look inside. */
export interface DiagnoseTrace {
  scan: Pick<LogScan, 'bytes' | 'totalLines' | 'complete' | 'capped' | 'middle'>;
  layout: StepLayout;
  tools: string[];
  signals: Signal[];
  candidates: (Candidate & { confidence?: number; checks?: string[] })[];
  /** The chosen evidence blocks with their scores and reasons. */
  blocks: Block[];
  keptLines: LogLine[];
  /** The matchers' category before the evidence stage read the blocks (issue 14). */
  matchedCategory: Category;
  /** What LLM mode did (turns, tokens, spend, why it stopped), when it ran. */
  agent?: AgentSummary;
}

/**
 * The call graph and the tag index run on tree-sitter (web-tree-sitter's runtime and the tag code): loaded
 * only once there is a checkout, so a diagnosis of a log alone does not load them (issue 12, start-up).
 */
async function symbolGraphFor(...args: Parameters<typeof SymbolGraphFor>): ReturnType<typeof SymbolGraphFor> {
  return (await import('./locate/blame-graph.js')).symbolGraphFor(...args);
}

/** Diagnoses a failed CI log: the failing step, the evidence, the category and a verified file:line. */
export async function diagnose(req: DiagnoseRequest): Promise<Diagnosis> {
  return (await diagnoseWithTrace(req)).diagnosis;
}

export async function diagnoseWithTrace(req: DiagnoseRequest): Promise<{ diagnosis: Diagnosis; trace: DiagnoseTrace }> {
  const t0 = performance.now();
  const progress = req.onProgress ?? (() => {});

  // 1. Read the log once, with bounded memory; list the checkout and read the diff meanwhile (other
  //    processes: ripgrep and git run on the second core while this one reads).
  progress('reading the log');
  const wsP = req.repo ? openWorkspace(req.repo) : undefined;
  const diffP = req.diff ? Promise.resolve(req.diff) : req.repo && req.base ? gitDiff(req.repo, req.base) : undefined;
  // Failures surface where they are awaited (step 5); until then, do not let them go unhandled.
  wsP?.catch(() => {});
  diffP?.catch(() => {});
  const read = await readLog(req.log);

  // 2. Find the step that ended the job, and the lines to read for evidence (as a person reads them:
  //    a CI's per-line prefix, such as Drone's, cut).
  const layout = findFailingStep(read.lines, read.sections, read.totalLines);
  const scan = layout.lines ? { ...read, lines: layout.lines } : read;
  const stepLines = linesOfStep(scan.lines, layout);

  // 3. Extract signals from the failing step (the whole log when the step says nothing).
  let extracted = extractSignals(stepLines);
  if (layout.failing && !extracted.signals.some((s) => s.kind !== 'identifier')) {
    const whole = extractSignals(scan.lines.slice(-MAX_STEP_LINES_FOR_MATCHERS));
    if (whole.signals.some((s) => s.kind !== 'identifier')) extracted = whole;
  }

  // 3b. History (issue 15): the diff against a passing log of the job, and whether the failure is the
  //     PR's (new), the base branch's (pre-existing) or flaky. Neither of the last two blames the diff.
  const hist = req.passingLog || req.history ? await compareWithHistory({ signals: extracted.signals, stepLines, head: scan.lines.slice(0, HISTORY_HEAD_LINES), ...(alignStep(layout) !== undefined ? { step: alignStep(layout)! } : {}), ...(req.jobName ? { jobName: req.jobName } : {}), ...(req.passingLog ? { passingLog: req.passingLog } : {}), ...(req.history ? { facts: req.history } : {}) }) : undefined;

  // Lines the passing run printed too are not causes: their signals do not become candidates.
  const seen = hist?.passing?.seenLines;
  const matched = seen?.size ? extracted.signals.filter((s) => !seen.has(s.logLine)) : extracted.signals;
  const newLines = hist?.passing?.newLines;
  const seenLines = seen?.size ? seen : undefined;

  // 4. The evidence blocks (src/evidence/): the matchers' signals widened to their blocks, and the generic
  //    finder's blocks where no matcher spoke. The category comes from the matchers, else from the
  //    blocks' words; locations inside the blocks become signals when no matcher located anything.
  const evLines = stepLines.length ? stepLines : scan.lines;
  const binary = looksBinary(scan.lines);
  const runnerErrorLines = layout.failing?.errorLines ?? [];
  let category = classify(matched);
  const firstEvidence: Selection = binary ? { blocks: [], lines: [] } : findEvidence({ lines: evLines, signals: matched, category, runnerErrorLines, ...(newLines ? { newLines } : {}), ...(seenLines ? { seenLines } : {}) });
  const matchedCategory = category;
  category = categoriseEvidence({ matched: category, signals: matched, blocks: firstEvidence.blocks, textOf: blockText(firstEvidence), ...(layout.failing?.name ? { stepName: layout.failing.name } : {}), ...(layout.failing && fetchesSources(layout.failing) ? { sourceFetch: true } : {}), ...(layout.failing?.kind === 'setup' ? { setupStep: true } : {}) });
  const locatedByMatcher = matched.some((s) => s.path && s.line !== undefined && (s.kind === 'diagnostic' || s.kind === 'test' || (s.kind === 'frame' && s.weight > 0.05)));
  const signals = locatedByMatcher ? matched : [...matched, ...signalsFromBlocks(firstEvidence.blocks, evLines, category)];

  // 5. Open the checkout and the PR's changes.
  progress(req.repo ? 'listing the repository' : 'no repository: paths as the log names them');
  const ws: Workspace | undefined = await wsP;
  const diff: PrDiff | undefined = hist && !hist.blameDiff ? (await diffP, undefined) : await diffP;

  // 6–7. Candidates from the log's locations, the PR's changes and rare identifiers, verified and ranked.
  progress('locating');
  const lineText = textLookup(scan.lines);
  const evidenceText = firstEvidence.lines.map((l) => l.text);
  // read only when no listed form placed the failure (locateCandidates)
  const evidence = () => linesAroundBlocks(firstEvidence.blocks, evLines);
  const locate = (d: PrDiff | undefined) => locateCandidates({ signals, ws, diff: d, category, lineText, evidence, evidenceText, graph: req.graph !== false });
  let verified = await locate(diff);
  // 7b. Pushes and silent diffs (issue 15): no PR diff, or one that reaches none of the candidates: the
  //     commits since the last green run of the job (the door's compare) are the diff prior instead.
  const prior = req.priorDiff && hist?.blameDiff !== false ? req.priorDiff : undefined;
  let blamedRange: BlamedRange | undefined;
  if (prior && ws && (!diff || silentDiff(verified, diff))) {
    const withPrior = await locate(prior.diff);
    if (!diff || withPrior.some((v) => reachedBy(v, prior.diff))) {
      verified = withPrior;
      blamedRange = { ...prior.range, why: diff ? 'silent-diff' : 'push' };
    }
  }
  const locatedDiff = blamedRange ? prior!.diff : diff;

  // 8. Abstain rather than pin a wrong line: infra failures, nothing verified, or too little confidence.
  const top = verified[0];
  const abstain = category === 'infra' || !top || top.confidence < MIN_CONFIDENCE;
  const findings = abstain ? [] : keepDirectEvidence(verified.filter((v) => v.confidence >= MIN_CONFIDENCE * 0.8), verified).map(toFinding(lineText));

  // 9. Name where each pin sits ("in `Parser.parseHeader()`"), from the tree-sitter tags of its file.
  if (ws) await nameEnclosingSymbols(findings, ws);

  // 10. The blocks a person would quote, the pin's own lines first.
  const pinned = new Set((abstain ? [] : verified.slice(0, 2)).flatMap((v) => v.signals.map((s) => s.logLine)));
  const chosen = binary ? firstEvidence : pinned.size ? findEvidence({ lines: evLines, signals, category, runnerErrorLines, pinned, ...(newLines ? { newLines } : {}), ...(seenLines ? { seenLines } : {}) }) : firstEvidence;

  let diagnosis: Diagnosis = {
    version: DIAGNOSIS_VERSION,
    status: abstain ? 'no-location' : 'located',
    category,
    findings,
    evidence: chosen.lines,
    evidenceBlocks: chosen.blocks.map(({ start, end, header, kind, source }) => ({ start, end, header, kind, source })),
    failingStep: layout.failing ? { name: layout.failing.name, startLine: layout.failing.startLine, endLine: layout.failing.endLine, format: layout.format } : null,
    summary: '',
    stats: {
      bytes: scan.bytes,
      lines: scan.totalLines,
      signals: signals.length,
      candidates: verified.length,
      ...(ws ? { filesInRepo: ws.files.length } : {}),
      ...(locatedDiff ? { changedFiles: locatedDiff.files.length } : {}),
      ms: Math.round(performance.now() - t0),
      ...(scan.complete && !scan.capped ? {} : { truncated: true }),
      ...(scan.middle ? { middle: { hits: scan.middle.hits, keptHits: scan.middle.keptHits, droppedHits: scan.middle.droppedHits, keptLines: scan.middle.keptLines, ...(scan.middle.unkeyedHits ? { unkeyedHits: scan.middle.unkeyedHits } : {}), ...(scan.middle.hitsEstimated ? { hitsEstimated: true as const } : {}) } } : {}),
    },
    ...(hist ? { history: { ...hist.history, ...(blamedRange ? { blamedRange } : {}) } } : {}),
  };
  diagnosis.summary = summarise(diagnosis, { hasRepo: !!ws, stepsSeen: layout.steps.length > 0, binary });

  // 11. LLM mode (optional): a model investigates from this result with the same bounded tools. Its pin
  //     is adopted only when it verifies against the checkout; otherwise this diagnosis stands as is.
  let agent: AgentSummary | undefined;
  if (req.llm && ws && category !== 'infra' && !binary) {
    progress('investigating with the LLM');
    // Loaded only in LLM mode: the agent and its SDK are most of the start-up's module graph.
    const { refineWithAgent } = await import('./locate/agent/index.js');
    const refined = await refineWithAgent(diagnosis, ws, locatedDiff, req.llm);
    agent = refined.summary;
    if (agent.adopted) {
      diagnosis = refined.diagnosis;
      diagnosis.summary = summarise(diagnosis, { hasRepo: true, stepsSeen: layout.steps.length > 0, binary });
    }
    diagnosis.stats.ms = Math.round(performance.now() - t0);
  }
  const trace: DiagnoseTrace = {
    scan: { bytes: scan.bytes, totalLines: scan.totalLines, complete: scan.complete, capped: scan.capped, ...(scan.middle ? { middle: scan.middle } : {}) },
    layout,
    tools: extracted.tools,
    signals,
    candidates: verified,
    blocks: chosen.blocks,
    keptLines: scan.lines,
    matchedCategory,
    ...(agent ? { agent } : {}),
  };
  return { diagnosis, trace };
}

interface LocateParams {
  signals: Signal[];
  ws: Workspace | undefined;
  diff: PrDiff | undefined;
  category: Category;
  lineText: (n: number) => string | undefined;
  /** The evidence blocks' lines and those around them, for the named-file reader. */
  evidence: () => { n: number; text: string }[];
  evidenceText: string[];
  graph: boolean;
}

/** Steps 6–7: the candidates for a pin under one diff prior, verified against the checkout and ranked. */
async function locateCandidates(p: LocateParams): Promise<Verified[]> {
  const { ws, diff, category, lineText } = p;
  let signals = p.signals;
  let candidates = candidatesFromSignals(signals, ws, diff);
  // No listed form placed the failure in the checkout: the checkout's files the evidence names, with the
  // numbers printed next to them, in whatever syntax the tool wrote them (src/locate/named-files.ts).
  if (ws && category !== 'infra' && !candidates.length) {
    // Kept only when they place something: a file named with no line would otherwise narrow the rare-identifier
    // search below to that file's (absent) span, where the whole checkout's search may still place it.
    const named = signalsNamingCheckoutFiles(p.evidence(), ws, category);
    const placed = named.length ? candidatesFromSignals([...signals, ...named], ws, diff) : [];
    if (placed.length) {
      signals = [...signals, ...named];
      candidates = placed;
    }
  }
  // A base class's test that failed in one subclass: that subclass's line spelling the expected value (added
  // after the stages below, which read the failing test's own line as the first candidate).
  const inherited = ws ? candidatesFromInheritedTest(candidates, ws) : [];
  // A failing test: the call graph tells which changed code the test reaches (tree-sitter tags, cached).
  const graph = ws && diff && category === 'test' && diff.files.length && p.graph ? await symbolGraphFor(ws, diff, candidates) : undefined;
  if (ws && diff) {
    const blamed = candidatesFromDiff({ category, signals, candidates, ws, diff, lineText, ...(graph ? { graph } : {}) });
    // Of the changes the test reaches, those inside the code its failed assertion checks first.
    if (graph) liftTestedHunks(blamed, candidatesFromTestedCode(graph, signals, candidates, ws, lineText));
    candidates.push(...belowTestLine(blamed, candidates));
    // A null dereference: the change that made the null, and the caller that handed one to an unchanged function.
    candidates.push(...candidatesFromNullSource(signals, candidates, blamed, diff));
    if (graph) candidates.push(...candidatesFromNullCaller(graph, candidates, ws, diff));
    // A call's arguments a definition cannot take: the one definition at odds with the call.
    if (graph) candidates.push(...candidatesFromCallSignature(graph, signals, candidates, ws, diff));
    // A name the error quotes, spelled in what the failing line called: the diff does not change which line that is.
    if (graph) candidates.push(...candidatesFromQuotedName(graph, candidates, ws));
  }
  // No diff: the graph still says what a failing test exercises; listed as leads below the assertion.
  if (ws && !diff && category === 'test' && p.graph) {
    const g = await symbolGraphFor(ws, { files: [], byFile: new Map() }, candidates);
    // The source the failing test exercises, as a candidate of its own (above the test's line only for a failed assertion).
    const tested = candidatesFromTestedCode(g, signals, candidates, ws, lineText);
    candidates.push(...candidatesFromTestGraph(g, signals, candidates, lineText), ...tested, ...candidatesFromQuotedName(g, candidates, ws), ...candidatesFromCallSignature(g, signals, candidates, ws, undefined));
  }
  candidates.push(...inherited);
  if (ws && category !== 'infra' && !candidates.length) candidates.push(...(await candidatesFromIdentifiers(signals, ws, diff)));
  candidates = mergeCandidates(candidates);
  // A workflow file, lockfile or build config is the cause only when the failure names it.
  candidates = candidates.filter((c) => !isConfigFile(c.file) || namedByFailure(c.file, signals, p.evidenceText));
  // 7. Verify each candidate against the checkout; confidence comes from the checks.
  return rankCandidates(
    candidates.map((c) => verifyCandidate(c, ws, diff)).filter((v): v is Verified => v !== null),
    diff,
  );
}

/** A candidate the diff accounts for: blamed on a change, or in a file the diff changed. */
function reachedBy(v: Verified, diff: PrDiff): boolean {
  return v.cause === 'diff' || v.cause === 'definition' || diff.byFile.has(v.file);
}

/** The PR's diff does not touch the failing code path: none of the top candidates is one it accounts for. */
function silentDiff(verified: readonly Verified[], diff: PrDiff): boolean {
  return !verified.slice(0, MAX_FINDINGS).some((v) => reachedBy(v, diff));
}

/**
 * The top MAX_FINDINGS, but never without the failure's own location: when the change is blamed, the
 * assertion (or the diagnostic) the log points at stays among the findings, last if need be.
 */
function keepDirectEvidence(kept: Verified[], all: Verified[]): Verified[] {
  const top = kept.slice(0, MAX_FINDINGS);
  if (top.some((v) => v.cause !== 'diff' && v.cause !== 'definition')) return top;
  const direct = all.find((v) => v.cause === 'test' || v.cause === 'diagnostic' || v.cause === 'frame');
  if (!direct) return top;
  return [...top.slice(0, MAX_FINDINGS - 1), direct];
}

async function nameEnclosingSymbols(findings: Finding[], ws: Workspace): Promise<void> {
  const { describeSymbol, enclosingDefinition, fileTags } = await import('./repo/map/index.js');
  for (const f of findings) {
    const def = enclosingDefinition(await fileTags(ws, f.file), f.line);
    if (def) f.symbol = describeSymbol(def);
  }
}

/** Lines of the failing log's head handed to the history (where the runner names the job). */
const HISTORY_HEAD_LINES = 200;

/** The failing step's name to align a passing log on; none when the log has no named steps (align on the whole log). */
function alignStep(layout: StepLayout): string | undefined {
  const step = layout.failing;
  if (!step || layout.format === 'plain' || (layout.format === 'github-actions' && step.name === 'job')) return undefined;
  return step.name;
}

function linesOfStep(lines: readonly LogLine[], layout: StepLayout): LogLine[] {
  const step = layout.failing;
  if (!step) {
    // No step failed: read the steps themselves, not the runner's cleanup after them.
    const end = layout.cleanupStart ?? Infinity;
    return lines.filter((l) => l.n < end).slice(-MAX_STEP_LINES_FOR_MATCHERS);
  }
  const inStep = lines.filter((l) => l.n >= step.startLine && l.n <= step.endLine);
  return inStep.slice(-MAX_STEP_LINES_FOR_MATCHERS);
}

/** The text of a block's quoted lines, for reading its words. */
function blockText(sel: Selection): (b: Block) => string {
  return (b) => sel.lines.filter((l) => l.line >= b.start && l.line <= b.end).map((l) => l.text).join('\n');
}

/**
 * A line's text by its number. The kept lines of a huge log run to a few hundred thousand and only a few
 * are looked up: in log order (the usual case) a binary search, else a Map (built on the first look-up).
 */
function textLookup(lines: readonly LogLine[]): (n: number) => string | undefined {
  let find: ((n: number) => string | undefined) | undefined;
  const build = (): ((n: number) => string | undefined) => {
    let ordered = true;
    for (let i = 1; i < lines.length && ordered; i++) ordered = lines[i - 1]!.n < lines[i]!.n;
    if (ordered) {
      return (n) => {
        let lo = 0;
        let hi = lines.length - 1;
        while (lo <= hi) {
          const mid = (lo + hi) >>> 1;
          const m = lines[mid]!.n;
          if (m === n) return lines[mid]!.text;
          if (m < n) lo = mid + 1;
          else hi = mid - 1;
        }
        return undefined;
      };
    }
    const map = new Map<number, string>();
    for (const l of lines) map.set(l.n, l.text);
    return (n) => map.get(n);
  };
  return (n) => (find ??= build())(n);
}

function toFinding(lineText: (n: number) => string | undefined): (v: Verified) => Finding {
  return (v) => {
    const evidence = [
      ...v.signals.slice(0, 3).map((s) => ({ line: s.logLine, text: lineText(s.logLine) ?? s.message })),
      ...[...new Set([...v.notes, ...v.checks])].map((text) => ({ text })),
    ];
    const f: Finding = { file: v.file, line: v.line, message: v.message, confidence: Math.round(v.confidence * 100) / 100, cause: v.cause, evidence };
    if (v.endLine !== undefined && v.endLine > v.line) f.endLine = v.endLine;
    if (v.column !== undefined) f.column = v.column;
    if (v.symbol !== undefined) f.symbol = v.symbol;
    return f;
  };
}

export type { Category };
