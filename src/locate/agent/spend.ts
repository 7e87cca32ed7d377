import type Anthropic from '@anthropic-ai/sdk';
import type { LlmConfig } from '../../config.js';

/** Running totals of one diagnosis, from the API's own `usage` (not from our estimates). */
export interface Spend {
  /** Every input token the API counted: uncached + cache writes + cache reads. */
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  usd: number;
}

export function newSpend(): Spend {
  return { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, usd: 0 };
}

/** Prompt-caching prices relative to base input: writes 1.25x (5-minute cache), reads 0.1x. */
const CACHE_WRITE = 1.25;
const CACHE_READ = 0.1;

/** Adds one response's usage to the totals and returns the cost of that response. */
export function addUsage(s: Spend, u: Anthropic.Usage | undefined, price: LlmConfig['price']): number {
  if (!u) return 0;
  const plain = u.input_tokens ?? 0;
  const write = u.cache_creation_input_tokens ?? 0;
  const read = u.cache_read_input_tokens ?? 0;
  const out = u.output_tokens ?? 0;
  const usd = ((plain + write * CACHE_WRITE + read * CACHE_READ) * price.inputPerMTok + out * price.outputPerMTok) / 1e6;
  s.inputTokens += plain + write + read;
  s.cacheReadTokens += read;
  s.cacheWriteTokens += write;
  s.outputTokens += out;
  s.usd += usd;
  return usd;
}

/**
 * The worst case of the next request before it is sent: every input token uncached at the write price
 * and every allowed output token used. The loop stops when this would cross a limit, so the limits
 * are hard: the API's answer can never push the totals past them.
 */
export function worstCaseUsd(inputTokens: number, maxOutput: number, price: LlmConfig['price']): number {
  return (inputTokens * CACHE_WRITE * price.inputPerMTok + maxOutput * price.outputPerMTok) / 1e6;
}
