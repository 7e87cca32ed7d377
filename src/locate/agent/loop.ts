import type Anthropic from '@anthropic-ai/sdk';
import type { LlmConfig } from '../../config.js';
import type { Diagnosis } from '../../types.js';
import type { Workspace } from '../../repo/workspace.js';
import type { PrDiff } from '../../repo/diff.js';
import type { FileTags } from '../../repo/map/types.js';
import { countTokens } from '../../repo/map/tokens.js';
import type { ToolContext } from '../tools/tool.js';
import type { ChatModel, TurnParams } from './chat-model.js';
import { buildFirstTurn } from './first-turn.js';
import { makeToolbox } from './toolbox.js';
import type { VerifiedReport } from './report-tool.js';
import { addUsage, newSpend, worstCaseUsd, type Spend } from './spend.js';
import { AGENT_MAX_OUTPUT_TOKENS, TOKEN_MARGIN } from './bounds.js';

export type AgentStop = 'reported' | 'max-turns' | 'input-budget' | 'spend' | 'api-error' | 'refused';

export interface TranscriptTurn {
  turn: number;
  /** What this request added to the conversation (the first one: system prompt, map and first message). */
  sent: unknown;
  received: Anthropic.ContentBlock[] | null;
  stopReason: string | null;
  usage: Anthropic.Usage | null;
  tools: { name: string; title: string; error: boolean }[];
}

export interface AgentRun {
  report?: VerifiedReport;
  stop: AgentStop;
  turns: number;
  spend: Spend;
  /** Estimated tokens of the first request (cl100k), and the parts left out to fit it. */
  firstTurnTokens: number;
  dropped: string[];
  error?: string;
  transcript: TranscriptTurn[];
}

export interface AgentInput {
  model: ChatModel;
  config: Pick<LlmConfig, 'model' | 'maxTurns' | 'maxInputTokens' | 'maxSpendUsd' | 'firstTurnTokens' | 'price'>;
  diagnosis: Diagnosis;
  ws: Workspace;
  diff?: PrDiff;
  tags: ReadonlyMap<string, FileTags>;
  spill?: ToolContext['spill'];
  signal?: AbortSignal;
}

const EPHEMERAL = { type: 'ephemeral' } as const;
const NUDGE = 'You did not call a tool. Continue with grep, glob, read or symbols, or call report now with the line you have read.';
const LAST_TURN = 'This is your last turn: call report now with the best line you have read (the deterministic top finding if nothing better was found).';

/** Keeps one moving cache breakpoint on the newest block, so each turn re-reads the conversation from cache. */
function moveBreakpoint(messages: Anthropic.MessageParam[]): void {
  for (const m of messages) if (Array.isArray(m.content)) for (const b of m.content) delete (b as { cache_control?: unknown }).cache_control;
  const last = messages.at(-1);
  const block = Array.isArray(last?.content) ? last.content.at(-1) : undefined;
  if (block && (block.type === 'text' || block.type === 'tool_result')) block.cache_control = EPHEMERAL;
}

/** Only what the API needs back of an assistant turn: its text and tool calls. */
function echo(content: Anthropic.ContentBlock[]): Anthropic.ContentBlockParam[] {
  const out: Anthropic.ContentBlockParam[] = [];
  for (const b of content) {
    if (b.type === 'text' && b.text) out.push({ type: 'text', text: b.text });
    else if (b.type === 'tool_use') out.push({ type: 'tool_use', id: b.id, name: b.name, input: b.input });
  }
  return out;
}

/**
 * The investigation: up to maxTurns requests, each answered with tool results, until a `report` verifies.
 * Stops before a request that could cross maxInputTokens or maxSpendUsd (worst case estimated first),
 * and on an API error that survived the SDK's retries. Never throws for the model's or the API's sake.
 */
export async function runAgent(o: AgentInput): Promise<AgentRun> {
  const cfg = o.config;
  const toolbox = makeToolbox({ ws: o.ws, tags: o.tags, ...(o.spill ? { spill: o.spill } : {}) });
  const first = await buildFirstTurn({ diagnosis: o.diagnosis, ws: o.ws, ...(o.diff ? { diff: o.diff } : {}), tags: o.tags, tools: toolbox.definitions, budget: cfg.firstTurnTokens });
  const run: AgentRun = { stop: 'max-turns', turns: 0, spend: newSpend(), firstTurnTokens: first.tokens.total, dropped: first.dropped, transcript: [] };
  const messages: Anthropic.MessageParam[] = [{ role: 'user', content: [{ type: 'text', text: first.user }] }];
  // The next request's input, estimated: the last request as the API counted it, plus what was added since.
  let nextInput = Math.ceil(first.tokens.total / (1 - TOKEN_MARGIN));
  let sent: unknown = { system: first.system, user: first.user, dropped: first.dropped };
  if (first.overBudget) return { ...run, stop: 'input-budget', error: `firstTurnTokens (${cfg.firstTurnTokens}) does not fit the system prompt and tools (${first.tokens.system + first.tokens.tools} tokens)` };

  for (let turn = 1; turn <= cfg.maxTurns; turn++) {
    if (run.spend.inputTokens + nextInput > cfg.maxInputTokens) return { ...run, stop: 'input-budget' };
    if (run.spend.usd + worstCaseUsd(nextInput, AGENT_MAX_OUTPUT_TOKENS, cfg.price) > cfg.maxSpendUsd) return { ...run, stop: 'spend' };
    moveBreakpoint(messages);
    const params: TurnParams = { model: cfg.model, max_tokens: AGENT_MAX_OUTPUT_TOKENS, system: first.system, tools: toolbox.definitions, messages };
    let msg: Anthropic.Message;
    try {
      msg = await o.model.send(params, o.signal);
    } catch (e) {
      run.transcript.push({ turn, sent, received: null, stopReason: null, usage: null, tools: [] });
      return { ...run, turns: turn, stop: 'api-error', error: e instanceof Error ? `${e.name}: ${e.message}` : String(e) };
    }
    run.turns = turn;
    addUsage(run.spend, msg.usage, cfg.price);
    const entry: TranscriptTurn = { turn, sent, received: msg.content, stopReason: msg.stop_reason, usage: msg.usage, tools: [] };
    run.transcript.push(entry);
    if (msg.stop_reason === 'refusal') return { ...run, stop: 'refused' };
    messages.push({ role: 'assistant', content: echo(msg.content).length ? echo(msg.content) : [{ type: 'text', text: '(no answer)' }] });

    const results: Anthropic.ContentBlockParam[] = [];
    for (const b of msg.content) {
      if (b.type !== 'tool_use') continue;
      const out = await toolbox.call(b.name, b.input);
      entry.tools.push({ name: b.name, title: out.title, error: out.isError });
      if (out.report) return { ...run, report: out.report, stop: 'reported' };
      results.push({ type: 'tool_result', tool_use_id: b.id, content: out.output, ...(out.isError ? { is_error: true } : {}) });
    }
    if (!results.length) results.push({ type: 'text', text: NUDGE });
    if (turn === cfg.maxTurns - 1) results.push({ type: 'text', text: LAST_TURN });
    messages.push({ role: 'user', content: results });
    sent = results;
    const added = countTokens(JSON.stringify(results)) + (msg.usage?.output_tokens ?? 0);
    const lastInput = (msg.usage?.input_tokens ?? 0) + (msg.usage?.cache_creation_input_tokens ?? 0) + (msg.usage?.cache_read_input_tokens ?? 0);
    nextInput = Math.max(lastInput, nextInput) + Math.ceil(added / (1 - TOKEN_MARGIN));
  }
  return { ...run, stop: 'max-turns' };
}
