import { afterEach, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { countTokens } from '../../src/repo/map/tokens.js';
import { cacheBreakpoints, requestText, type AssistantTurn } from '../helpers/fake-anthropic.js';
import { runScenario, toolResults, type Scenario } from './scenario.js';

// The recorded case: `needsRestock` switched from <= to <, so a vitest assertion in test/report.test.js fails.
const FIX = { file: 'src/inventory.js', line: 4, code: 'item.stock < item.reorderAt', explanation: 'The comparison became strict, so an item exactly at its reorder point is no longer restocked; the test expects it (log line 45).' };
const call = (name: string, input: unknown): AssistantTurn => ({ content: [{ type: 'tool_use', name, input }] });
const top = (s: Scenario) => s.result.diagnosis.findings[0];
let s: Scenario | undefined;
afterEach(async () => {
  await s?.cleanup();
  s = undefined;
});

describe('LLM mode: scripted investigations against the fake Messages API (real SDK, streaming)', () => {
  it('grep → read → report: verified and adopted over a weaker deterministic pin', async () => {
    s = await runScenario(
      [
        { content: [{ type: 'text', text: 'The assertion calls restockOrder; the filter uses needsRestock.' }, { type: 'tool_use', name: 'grep', input: { pattern: 'needsRestock', include: '*.js' } }] },
        call('read', { path: 'src/inventory.js', offset: 1, limit: 10 }),
        call('report', { ...FIX, suggestedReplacement: '  return item.stock <= item.reorderAt;' }),
      ],
      { noBase: true },
    );
    const a = s.result.trace.agent!;
    expect(a).toMatchObject({ stop: 'reported', adopted: true, turns: 3, report: { file: 'src/inventory.js', line: 4 } });
    expect(s.baseline.diagnosis.findings[0]!.file).not.toBe('src/inventory.js');
    expect(top(s)).toMatchObject({ file: 'src/inventory.js', line: 4, cause: 'model', symbol: 'needsRestock()' });
    expect(top(s)!.evidence.map((e) => e.text).join('\n')).toMatch(/Suggested replacement for line 4: {3}return item.stock <= item.reorderAt;/);
    expect(s.result.diagnosis.summary).toContain('src/inventory.js:4');
    // The deterministic findings are all still there, after the model's.
    for (const f of s.baseline.diagnosis.findings) expect(s.result.diagnosis.findings.some((g) => g.file === f.file && g.line === f.line)).toBe(true);

    const reqs = s.fake.requests;
    expect(reqs).toHaveLength(3);
    expect(reqs.every((r) => r.stream && r.status === 200)).toBe(true);
    expect(reqs[0]!.body.tools!.map((t) => t.name)).toEqual(['grep', 'glob', 'read', 'symbols', 'report']);
    for (const t of reqs[0]!.body.tools!) expect(t.input_schema).toMatchObject({ type: 'object' });
    expect(reqs[0]!.body.tools!.find((t) => t.name === 'report')!.input_schema!.required).toEqual(expect.arrayContaining(['file', 'line', 'code', 'explanation']));
    // Stable prefix: tools + system prompt, then the repo map, each closed by a breakpoint; one more moves with the conversation.
    expect(cacheBreakpoints(reqs[0]!.body)).toEqual(['system[0]', 'system[1]', 'messages[0].content[0]']);
    expect(cacheBreakpoints(reqs[2]!.body)).toEqual(['system[0]', 'system[1]', 'messages[4].content[0]']);
    expect(JSON.stringify(reqs[1]!.body.system)).toBe(JSON.stringify(reqs[0]!.body.system));
    expect(reqs[1]!.response!.usage.cache_read_input_tokens).toBeGreaterThan(0);
    // Within the first-turn budget, counted our way and the server's way.
    expect(countTokens(requestText(reqs[0]!.body))).toBeLessThanOrEqual(8000);
    const u = reqs[0]!.response!.usage;
    expect(u.input_tokens + u.cache_creation_input_tokens + u.cache_read_input_tokens).toBeLessThanOrEqual(8000);
    expect(String(reqs[0]!.body.system && JSON.stringify(reqs[0]!.body.system))).toContain('Repository map');
    // The tool results the model saw.
    expect(toolResults(s.fake, 1)[0]!.text).toContain('src/inventory.js:');
    expect(toolResults(s.fake, 2)[0]!.text).toContain('00004|   return item.stock < item.reorderAt;');
    // The transcript is written to the artifacts folder.
    const transcript = JSON.parse(readFileSync(join(s.artifacts, 'llm-transcript.json'), 'utf8'));
    expect(transcript).toMatchObject({ stop: 'reported', report: { file: 'src/inventory.js', line: 4 } });
    expect(transcript.turns).toHaveLength(3);
  });

  it('agreeing with a strong deterministic pin keeps it on top, with the explanation as evidence', async () => {
    s = await runScenario([call('report', FIX)]);
    expect(s.result.trace.agent).toMatchObject({ stop: 'reported', adopted: true, turns: 1 });
    expect(top(s)).toMatchObject({ file: 'src/inventory.js', line: 4, cause: 'diff' });
    expect(top(s)!.evidence.at(-1)!.text).toMatch(/^LLM investigation \(claude-/);
  });

  it('a different pin never displaces a strong deterministic one: it is listed second', async () => {
    s = await runScenario([call('report', { file: 'src/report.js', line: 8, code: '.sort((a, b) => a.sku.localeCompare(b.sku))', explanation: 'The new sort changes the order of the rows the test compares.' })]);
    // The strong deterministic pin stays first; the model's pin is second (it may coincide with a
    // lower deterministic finding, which then carries the model's explanation).
    const [first, second] = s.result.diagnosis.findings;
    expect(`${first!.file}:${first!.line}:${first!.cause}`).toBe('src/inventory.js:4:diff');
    expect(`${second!.file}:${second!.line}`).toBe('src/report.js:8');
    expect(second!.evidence.map((e) => e.text).join('\n')).toMatch(/LLM investigation .*new sort changes the order/);
  });

  it('a hallucinated path, a line out of range and misquoted code are rejected with reasons; the corrected report is adopted', async () => {
    s = await runScenario(
      [
        call('report', { ...FIX, file: 'src/inventory.ts' }),
        call('report', { ...FIX, line: 400 }),
        call('report', { ...FIX, line: 3 }),
        call('report', FIX),
      ],
      { noBase: true },
    );
    expect(s.result.trace.agent).toMatchObject({ stop: 'reported', adopted: true, turns: 4 });
    const [missing] = toolResults(s.fake, 1);
    expect(missing).toMatchObject({ isError: true });
    expect(missing!.text).toMatch(/not a file of the repository.*glob/s);
    expect(toolResults(s.fake, 2)[0]!.text).toMatch(/has \d+ lines; line 400 does not exist/);
    expect(toolResults(s.fake, 3)[0]!.text).toMatch(/not on line 3 .*The cited code is on line 4/s);
    expect(top(s)).toMatchObject({ file: 'src/inventory.js', line: 4 });
  });

  it('a model that never reports: stops at maxTurns and the deterministic answer stands', async () => {
    s = await runScenario(() => call('glob', { pattern: '*.js' }), { config: { maxTurns: 3 } });
    expect(s.result.trace.agent).toMatchObject({ stop: 'max-turns', adopted: false, turns: 3 });
    expect(s.fake.requests).toHaveLength(3);
    expect(s.result.diagnosis.findings).toEqual(s.baseline.diagnosis.findings);
    expect(s.result.diagnosis.summary).toBe(s.baseline.diagnosis.summary);
    // The model is told when its last turn comes.
    expect(requestText(s.fake.requests[2]!.body)).toContain('This is your last turn');
  });

  it('a model that answers in prose is nudged to use a tool', async () => {
    s = await runScenario([{ content: [{ type: 'text', text: 'I believe the bug is somewhere in inventory.' }] }, call('report', FIX)], { noBase: true });
    expect(requestText(s.fake.requests[1]!.body)).toContain('You did not call a tool');
    expect(s.result.trace.agent).toMatchObject({ stop: 'reported', adopted: true });
  });

  it('malformed tool input comes back as an is_error tool_result that says how to call the tool', async () => {
    s = await runScenario(
      [
        { content: [
          { type: 'tool_use', name: 'read', input: { path: 42 } },
          { type: 'tool_use', name: 'grep', input: {} },
          { type: 'tool_use', name: 'symbols', input: { name: 'a.b(c)' } },
          { type: 'tool_use', name: 'bash', input: { command: 'cat /etc/passwd' } },
          { type: 'tool_use', name: 'report', input: { file: 'src/inventory.js' } },
        ] },
        call('report', FIX),
      ],
      { noBase: true },
    );
    const r = toolResults(s.fake, 1);
    expect(r).toHaveLength(5);
    expect(r.every((x) => x.isError)).toBe(true);
    expect(r[0]!.text).toMatch(/Invalid arguments for tool "read".*path/s);
    expect(r[1]!.text).toMatch(/Invalid arguments for tool "grep".*pattern/s);
    expect(r[2]!.text).toContain('one identifier');
    expect(r[3]!.text).toMatch(/no tool "bash".*grep, glob, read, symbols, report/s);
    expect(r[4]!.text).toMatch(/Invalid arguments for tool "report".*line/s);
    expect(s.result.trace.agent).toMatchObject({ stop: 'reported', adopted: true, turns: 2 });
  });

  it('symbols lists definitions and references from the tag index', async () => {
    s = await runScenario([call('symbols', { name: 'needsRestock' }), call('report', FIX)], { noBase: true });
    const out = toolResults(s.fake, 1)[0]!.text;
    expect(out).toMatch(/Definitions of needsRestock \(1\):\n {2}src\/inventory\.js:2 {2}export function needsRestock/);
    expect(out).toMatch(/References to needsRestock .*src\/report\.js: /s);
  });

  it('stops before crossing the input-token budget and the spend limit', async () => {
    s = await runScenario([{ ...call('glob', { pattern: '*.js' }), usage: { input_tokens: 37_000 } }, call('report', FIX)]);
    expect(s.result.trace.agent).toMatchObject({ stop: 'input-budget', adopted: false, turns: 1 });
    expect(s.fake.requests).toHaveLength(1);
    expect(s.result.diagnosis.findings).toEqual(s.baseline.diagnosis.findings);
    await s.cleanup();

    s = await runScenario([{ ...call('glob', { pattern: '*.js' }), usage: { input_tokens: 6_000, output_tokens: 900 } }, call('report', FIX)], { config: { maxSpendUsd: 0.06 } });
    expect(s.result.trace.agent).toMatchObject({ stop: 'spend', turns: 1 });
    expect(s.result.trace.agent!.usd).toBeLessThanOrEqual(0.06);
    await s.cleanup();

    s = await runScenario([call('report', FIX)], { config: { maxSpendUsd: 0.01 } });
    expect(s.result.trace.agent).toMatchObject({ stop: 'spend', turns: 0 });
    expect(s.fake.requests).toHaveLength(0);
    expect(existsSync(join(s.artifacts, 'llm-transcript.json'))).toBe(true);
  });

  it('cuts the first turn to firstTurnTokens and says what was dropped', async () => {
    // A PR that also adds a big generated file: its hunk is the lowest-ranked part and does not fit.
    const prepare = (repo: string) => {
      const rows = Array.from({ length: 40 }, (_, i) => `export const row${i} = ${JSON.stringify(Array.from({ length: 40 }, (_, k) => `value-${i}-${k}`))};`);
      writeFileSync(join(repo, 'src/generated.js'), rows.join('\n') + '\n');
      const git = (...a: string[]) => execFileSync('git', a, { cwd: repo, env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t.invalid', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t.invalid' } });
      git('add', '-A');
      git('commit', '-q', '-m', 'generated');
    };
    s = await runScenario([call('report', FIX)], { config: { firstTurnTokens: 4_000 }, prepare });
    const a = s.result.trace.agent!;
    expect(a.firstTurnTokens).toBeLessThanOrEqual(4_000);
    expect(a.dropped.length).toBeGreaterThan(0);
    // Lowest-ranked parts go first: the header, the evidence and the top finding stay.
    expect(a.dropped).not.toContain('header');
    expect(a.dropped).not.toContain('evidence lines');
    expect(a.dropped).not.toContain('finding 1 (src/inventory.js:4)');
    const text = requestText(s.fake.requests[0]!.body);
    expect(countTokens(text)).toBeLessThanOrEqual(4_000);
    expect(text).toContain(`Left out to stay within the first-turn budget: ${a.dropped[0]}`);
  });
});
