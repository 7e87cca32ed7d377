import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// @ts-expect-error plain ESM helper shared with the golden test and the bench
import { layOutCase } from '../../scripts/lay-out-case.mjs';
import { diagnoseWithTrace } from '../../src/diagnose.js';
import { defaultConfig, type LlmConfig } from '../../src/config.js';
import { anthropicChatModel } from '../../src/locate/agent/index.js';
import { requestText, startFakeAnthropic, type FakeAnthropic, type Script } from '../helpers/fake-anthropic.js';

export const CASE = new URL('../../fixtures/logs/vitest-wrong-operator/', import.meta.url).pathname;

export interface Scenario {
  fake: FakeAnthropic;
  repo: string;
  /** A scratch folder around the repo (the repo is inside it: `../x` from the repo lands here). */
  outside: string;
  artifacts: string;
  result: Awaited<ReturnType<typeof diagnoseWithTrace>>;
  /** The same case without LLM mode, for "never worse" comparisons. */
  baseline: Awaited<ReturnType<typeof diagnoseWithTrace>>;
  /** Every string of every request the fake server recorded. */
  sent: string;
  cleanup(): Promise<void>;
}

/**
 * Lays out the recorded vitest case as a git repo inside a scratch folder, runs diagnose with LLM mode
 * on, the real SDK pointed at the fake Messages API replaying `script`, and returns both runs.
 */
export async function runScenario(
  script: Script,
  o: { config?: Partial<LlmConfig>; noBase?: boolean; extraLog?: string; prepare?: (repo: string, outside: string) => void; maxRetries?: number } = {},
): Promise<Scenario> {
  const outside = mkdtempSync(join(tmpdir(), 'redline-agent-'));
  const repo = join(outside, 'checkout');
  const { base } = layOutCase(CASE, repo) as { base: string };
  o.prepare?.(repo, outside);
  const log = join(outside, 'job.log');
  writeFileSync(log, readFileSync(join(CASE, 'log.txt'), 'utf8') + (o.extraLog ?? ''));
  const artifacts = join(outside, 'artifacts');
  const fake = await startFakeAnthropic(script);
  const config = { ...defaultConfig().llm, ...o.config };
  const model = anthropicChatModel({ apiKey: 'test-key-not-secret', baseURL: fake.url, ...(o.maxRetries !== undefined ? { maxRetries: o.maxRetries } : {}) });
  const req = { log, repo, ...(o.noBase ? {} : { base }) };
  const baseline = await diagnoseWithTrace(req);
  const result = await diagnoseWithTrace({ ...req, llm: { model, config, artifactsDir: artifacts } });
  return {
    fake,
    repo,
    outside,
    artifacts,
    result,
    baseline,
    get sent() {
      return fake.requests.map((r) => requestText(r.body) + '\n' + r.rawBody).join('\n');
    },
    async cleanup() {
      await fake.close();
      rmSync(outside, { recursive: true, force: true });
    },
  };
}

/** The tool_result blocks of a recorded request, flattened to text with their error flag. */
export function toolResults(fake: FakeAnthropic, index: number): { text: string; isError: boolean }[] {
  const msgs = fake.requests[index]?.body.messages ?? [];
  const last = msgs.at(-1);
  if (!last || !Array.isArray(last.content)) return [];
  return last.content
    .filter((b) => b.type === 'tool_result')
    .map((b) => ({ text: typeof b.content === 'string' ? b.content : (b.content ?? []).map((x) => x.text ?? '').join(''), isError: b.is_error === true }));
}
