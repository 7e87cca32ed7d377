import type { LlmConfig } from '../../config.js';
import type { Diagnosis } from '../../types.js';
import type { Workspace } from '../../repo/workspace.js';
import type { PrDiff } from '../../repo/diff.js';
import { codeFiles } from '../../repo/map/code-files.js';
import { describeSymbol, enclosingDefinition, tagsForFiles } from '../../repo/map/index.js';
import type { ChatModel } from './chat-model.js';
import { runAgent, type AgentRun } from './loop.js';
import { adoptReport } from './adopt.js';
import { spillTo, writeTranscript } from './transcript.js';

export { anthropicChatModel, type ChatModel, type AnthropicOptions } from './chat-model.js';
export type { AgentRun, AgentStop } from './loop.js';

/** What a door hands the core to turn LLM mode on: a model to talk to and the settings. */
export interface LlmRequest {
  model: ChatModel;
  config: LlmConfig;
  /** Where the transcript and spilled tool outputs go (the --artifacts folder). */
  artifactsDir?: string;
  signal?: AbortSignal;
}

/** What LLM mode did, for the trace and the one-line note a door prints. */
export interface AgentSummary {
  stop: AgentRun['stop'];
  adopted: boolean;
  turns: number;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  usd: number;
  firstTurnTokens: number;
  dropped: string[];
  report?: { file: string; line: number };
  error?: string;
  transcript?: string;
}

/**
 * Runs the investigation from the deterministic diagnosis and returns the diagnosis to report: the
 * deterministic one plus whatever the model verified (see adoptReport). Never throws: any failure
 * (API, budget, a bug here) leaves the deterministic answer as it was.
 */
export async function refineWithAgent(d: Diagnosis, ws: Workspace, diff: PrDiff | undefined, llm: LlmRequest): Promise<{ diagnosis: Diagnosis; summary: AgentSummary }> {
  let run: AgentRun | undefined;
  try {
    const tags = await tagsForFiles(ws, codeFiles(ws));
    run = await runAgent({
      model: llm.model,
      config: llm.config,
      diagnosis: d,
      ws,
      ...(diff ? { diff } : {}),
      tags,
      ...(llm.artifactsDir ? { spill: spillTo(llm.artifactsDir) } : {}),
      ...(llm.signal ? { signal: llm.signal } : {}),
    });
    const transcript = llm.artifactsDir ? await writeTranscript(llm.artifactsDir, run, llm.config.model).catch(() => undefined) : undefined;
    const r = run.report;
    const def = r ? enclosingDefinition(tags.get(r.file), r.line) : undefined;
    const diagnosis = r ? adoptReport(d, r, { model: llm.config.model, ...(diff ? { diff } : {}), ...(def ? { symbol: describeSymbol(def) } : {}) }) : d;
    return { diagnosis, summary: summaryOf(run, !!r, transcript) };
  } catch (e) {
    const base = run ? summaryOf(run, false) : { stop: 'api-error' as const, adopted: false, turns: 0, inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, usd: 0, firstTurnTokens: 0, dropped: [] };
    return { diagnosis: d, summary: { ...base, error: `LLM mode failed: ${(e as Error)?.message ?? String(e)}` } };
  }
}

function summaryOf(run: AgentRun, adopted: boolean, transcript?: string): AgentSummary {
  const s = run.spend;
  return {
    stop: run.stop,
    adopted,
    turns: run.turns,
    inputTokens: s.inputTokens,
    outputTokens: s.outputTokens,
    cacheReadTokens: s.cacheReadTokens,
    usd: Math.round(s.usd * 10_000) / 10_000,
    firstTurnTokens: run.firstTurnTokens,
    dropped: run.dropped,
    ...(run.report ? { report: { file: run.report.file, line: run.report.line } } : {}),
    ...(run.error ? { error: run.error } : {}),
    ...(transcript ? { transcript } : {}),
  };
}
