// LLM mode figures for `npm run bench`: every golden fixture diagnosed with LLM mode on, the real SDK
// pointed at a scripted local Messages API that replays a `report` of the deterministic top finding.
// Measures what would be sent (tokens per diagnosis vs the raw log), turns used, and the first turn of
// the 1 GB log. Asserts nothing; the tests do.
import { createServer } from 'node:http';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s.length ? s[Math.floor(s.length / 2)] : 0; };

/** A minimal streaming Messages API: answers each request with `reply(body)` as SSE, usage ~4 chars/token. */
async function scriptedServer(reply) {
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const body = JSON.parse(raw);
      const block = reply(body);
      const usage = { input_tokens: Math.ceil(raw.length / 4), output_tokens: 60, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
      const msg = { id: 'msg_bench', type: 'message', role: 'assistant', model: body.model, content: [], stop_reason: null, stop_sequence: null, usage };
      const ev = (type, data) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      ev('message_start', { message: msg });
      ev('content_block_start', { index: 0, content_block: block.type === 'tool_use' ? { ...block, input: {} } : { type: 'text', text: '' } });
      ev('content_block_delta', { index: 0, delta: block.type === 'tool_use' ? { type: 'input_json_delta', partial_json: JSON.stringify(block.input) } : { type: 'text_delta', text: block.text } });
      ev('content_block_stop', { index: 0 });
      ev('message_delta', { delta: { stop_reason: block.type === 'tool_use' ? 'tool_use' : 'end_turn', stop_sequence: null }, usage: { output_tokens: 60 } });
      ev('message_stop', {});
      res.end();
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((r) => server.close(r)) };
}

/** Reports the deterministic top finding (quoting its line), or says it found nothing. */
function replayTop(finding, repo) {
  return () => {
    if (!finding) return { type: 'text', text: 'Nothing to report.' };
    const code = readFileSync(join(repo, finding.file), 'utf8').split(/\r?\n/)[finding.line - 1].trim() || finding.file;
    return { type: 'tool_use', id: 'toolu_bench', name: 'report', input: { file: finding.file, line: finding.line, code: code.slice(0, 200), explanation: 'Replaying the deterministic top finding for the benchmark.' } };
  };
}

export async function benchLlm({ listCases, CASES_DIR, layOutCase, bigLog, bigCase }) {
  const { diagnoseWithTrace } = await import('../dist/diagnose.js');
  const { anthropicChatModel } = await import('../dist/locate/agent/index.js');
  const { defaultConfig } = await import('../dist/config.js');
  const { countTokens } = await import('../dist/repo/map/tokens.js');
  const { rmSync } = await import('node:fs');
  const config = defaultConfig().llm;
  const rows = [];
  for (const name of listCases()) {
    const dir = join(CASES_DIR, name);
    const { repo, base } = layOutCase(dir);
    try {
      const log = join(dir, 'log.txt');
      const det = await diagnoseWithTrace({ log, repo, base });
      const server = await scriptedServer(replayTop(det.diagnosis.findings[0], repo));
      const model = anthropicChatModel({ apiKey: 'bench', baseURL: server.url });
      const llm = await diagnoseWithTrace({ log, repo, base, llm: { model, config } });
      await server.close();
      const a = llm.trace.agent;
      const same = (x, y) => (!x && !y) || (x && y && x.file === y.file && x.line === y.line);
      rows.push({ name, ran: !!a, logTokens: countTokens(readFileSync(log, 'utf8')), sent: a?.inputTokens ?? 0, first: a?.firstTurnTokens ?? 0, turns: a?.turns ?? 0, stop: a?.stop, sameTop: same(det.diagnosis.findings[0], llm.diagnosis.findings[0]) });
    } finally {
      rmSync(repo, { recursive: true, force: true });
    }
  }
  const ran = rows.filter((r) => r.ran);
  console.log(`\nLLM mode (scripted local Messages API replaying the deterministic top finding; ${ran.length} of ${rows.length} fixtures run it, infra/abstain-by-category skip it)`);
  console.log(`  raw log tokens          median ${median(ran.map((r) => r.logTokens)).toLocaleString().padStart(7)}   max ${Math.max(...ran.map((r) => r.logTokens)).toLocaleString().padStart(9)}`);
  console.log(`  input tokens sent       median ${median(ran.map((r) => r.sent)).toLocaleString().padStart(7)}   max ${Math.max(...ran.map((r) => r.sent)).toLocaleString().padStart(9)}   (per diagnosis, all turns, server count ~4 chars/token)`);
  console.log(`  first-turn tokens       median ${median(ran.map((r) => r.first)).toLocaleString().padStart(7)}   max ${Math.max(...ran.map((r) => r.first)).toLocaleString().padStart(9)}   (cl100k; budget ${config.firstTurnTokens})`);
  console.log(`  turns used              median ${median(ran.map((r) => r.turns)).toString().padStart(7)}   max ${Math.max(...ran.map((r) => r.turns)).toString().padStart(9)}   stops: ${JSON.stringify(ran.reduce((m, r) => ((m[r.stop] = (m[r.stop] ?? 0) + 1), m), {}))}`);
  console.log(`  top-1 unchanged vs deterministic: ${rows.filter((r) => r.sameTop).length}/${rows.length}`);

  if (bigLog) {
    const { repo, base } = layOutCase(bigCase);
    try {
      const det = await diagnoseWithTrace({ log: bigLog, repo, base });
      const server = await scriptedServer(replayTop(det.diagnosis.findings[0], repo));
      const t0 = performance.now();
      const r = await diagnoseWithTrace({ log: bigLog, repo, base, llm: { model: anthropicChatModel({ apiKey: 'bench', baseURL: server.url }), config } });
      await server.close();
      const a = r.trace.agent;
      console.log(`  1 GB log (${(statSync(bigLog).size / 2 ** 20).toFixed(0)} MB, ~${Math.round(statSync(bigLog).size / 4 / 1e6)}M tokens raw): first turn ${a?.firstTurnTokens} tokens, ${a?.inputTokens} sent in ${a?.turns} turn(s), ${a?.stop}, ${(performance.now() - t0).toFixed(0)} ms`);
    } finally {
      rmSync(repo, { recursive: true, force: true });
    }
  }
}
