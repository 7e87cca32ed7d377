import Anthropic from '@anthropic-ai/sdk';
import { API_MAX_RETRIES, API_TIMEOUT_MS } from './bounds.js';

/** The parameters of one request (non-streaming shape; the adapter streams). */
export type TurnParams = Omit<Anthropic.MessageCreateParamsNonStreaming, 'stream'>;

/**
 * The role interface the loop talks to (DESIGN.md §7.2): one request in, one complete assistant message
 * out. A failed request throws (the loop catches and falls back); retries are the adapter's business.
 */
export interface ChatModel {
  send(params: TurnParams, signal?: AbortSignal): Promise<Anthropic.Message>;
}

export interface AnthropicOptions {
  apiKey: string;
  /** Defaults to ANTHROPIC_BASE_URL (read by the SDK), else api.anthropic.com. Tests point it at 127.0.0.1. */
  baseURL?: string;
  timeoutMs?: number;
  maxRetries?: number;
}

/**
 * The Anthropic Messages API over streaming (long turns do not hit idle-connection timeouts), with a
 * short timeout and two retries: the SDK retries 408/409/429/5xx and honours retry-after; what still
 * fails is thrown and the diagnosis keeps its deterministic answer.
 */
export function anthropicChatModel(o: AnthropicOptions): ChatModel {
  const client = new Anthropic({
    apiKey: o.apiKey,
    ...(o.baseURL ? { baseURL: o.baseURL } : {}),
    timeout: o.timeoutMs ?? API_TIMEOUT_MS,
    maxRetries: o.maxRetries ?? API_MAX_RETRIES,
    // The SDK's logger writes to stdout by default: stdout is the report, keep it clean.
    logLevel: 'off',
  });
  return {
    async send(params, signal) {
      const stream = client.messages.stream(params, signal ? { signal } : {});
      return stream.finalMessage();
    },
  };
}
