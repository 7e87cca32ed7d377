import { afterEach, describe, expect, it } from 'vitest';
import Anthropic from '@anthropic-ai/sdk';
import { cacheBreakpoints, requestText, startFakeAnthropic, type FakeAnthropic, type Script } from './fake-anthropic.js';

/** The real SDK against the local fake: what issue 4's tests will stand on. */
const MODEL = 'claude-sonnet-5-5';
const TOOLS: Anthropic.Tool[] = [
  {
    name: 'grep',
    description: 'Search the repository with a fixed-string pattern.',
    input_schema: { type: 'object', properties: { pattern: { type: 'string' } }, required: ['pattern'] },
  },
  {
    name: 'read',
    description: 'Read lines of a file.',
    input_schema: {
      type: 'object',
      properties: { path: { type: 'string' }, start: { type: 'integer' }, end: { type: 'integer' } },
      required: ['path'],
    },
    cache_control: { type: 'ephemeral' },
  },
];

let fake: FakeAnthropic | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function start(script: Script): Promise<{ fake: FakeAnthropic; client: Anthropic }> {
  fake = await startFakeAnthropic(script);
  const client = new Anthropic({ apiKey: 'test-key', baseURL: fake.url, maxRetries: 2, timeout: 10_000 });
  return { fake, client };
}

describe('fake Anthropic server with the real SDK', () => {
  it('answers messages.create with a text turn and records the request', async () => {
    const { fake, client } = await start([{ content: [{ type: 'text', text: 'The pin is src/a.ts:12.' }] }]);
    const msg = await client.messages.create({
      model: MODEL,
      max_tokens: 512,
      messages: [{ role: 'user', content: 'Why did CI fail?' }],
    });
    expect(msg.type).toBe('message');
    expect(msg.id).toMatch(/^msg_01[0-9A-Za-z]{22}$/);
    expect(msg.model).toBe(MODEL);
    expect(msg.stop_reason).toBe('end_turn');
    expect(msg.content).toEqual([{ type: 'text', text: 'The pin is src/a.ts:12.' }]);
    expect(msg.usage.input_tokens).toBeGreaterThan(0);
    expect(msg.usage.output_tokens).toBeGreaterThan(0);
    expect(msg.usage.cache_read_input_tokens).toBe(0);

    expect(fake.requests).toHaveLength(1);
    const req = fake.requests[0]!;
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/v1/messages');
    // SDK 1.x sends the apiKey as a bearer token, not as x-api-key.
    expect(req.headers['authorization']).toBe('Bearer test-key');
    expect(req.headers['anthropic-version']).toBeTruthy();
    expect(req.body.model).toBe(MODEL);
    expect(req.body.max_tokens).toBe(512);
    expect(req.body.messages).toEqual([{ role: 'user', content: 'Why did CI fail?' }]);
    expect(req.stream).toBe(false);
    expect(req.status).toBe(200);
    expect(req.turnIndex).toBe(0);
  });

  it('answers a tool_use turn with filled ids and stop_reason tool_use, then accepts the matching tool_result', async () => {
    const { fake, client } = await start([
      { content: [{ type: 'text', text: 'Let me look.' }, { type: 'tool_use', name: 'grep', input: { pattern: 'TypeError' } }] },
      { content: [{ type: 'text', text: 'Found it.' }] },
    ]);
    const messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'Investigate.' }];
    const first = await client.messages.create({ model: MODEL, max_tokens: 256, tools: TOOLS, messages });
    expect(first.stop_reason).toBe('tool_use');
    const use = first.content.find((b): b is Anthropic.ToolUseBlock => b.type === 'tool_use')!;
    expect(use.id).toMatch(/^toolu_01[0-9A-Za-z]{22}$/);
    expect(use.name).toBe('grep');
    expect(use.input).toEqual({ pattern: 'TypeError' });

    messages.push({ role: 'assistant', content: first.content });
    messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: 'src/a.ts:12: TypeError' }] });
    const second = await client.messages.create({ model: MODEL, max_tokens: 256, tools: TOOLS, messages });
    expect(second.content).toEqual([{ type: 'text', text: 'Found it.' }]);
    expect(fake.requests.map((r) => r.status)).toEqual([200, 200]);
  });

  it('streams text and tool input that messages.stream().finalMessage() reassembles', async () => {
    const input = { path: 'src/deep/module.ts', start: 10, end: 42, note: 'a "quoted" value, with commas' };
    const { fake, client } = await start([
      {
        content: [
          { type: 'text', text: 'Reading the module that throws the error now.' },
          { type: 'tool_use', id: 'toolu_01fixedid', name: 'read', input },
        ],
      },
    ]);
    const stream = client.messages.stream({
      model: MODEL,
      max_tokens: 256,
      tools: TOOLS,
      messages: [{ role: 'user', content: 'Investigate.' }],
    });
    const textDeltas: string[] = [];
    const jsonDeltas: string[] = [];
    stream.on('text', (delta) => textDeltas.push(delta));
    stream.on('inputJson', (partial) => jsonDeltas.push(partial));
    const final = await stream.finalMessage();

    expect(final.stop_reason).toBe('tool_use');
    expect(final.content[0]).toMatchObject({ type: 'text', text: 'Reading the module that throws the error now.' });
    expect(final.content[1]).toMatchObject({ type: 'tool_use', id: 'toolu_01fixedid', name: 'read', input });
    expect(final.usage.output_tokens).toBeGreaterThan(1);
    expect(textDeltas.length).toBeGreaterThan(1);
    expect(jsonDeltas.filter((d) => d.length > 0).length).toBeGreaterThan(1);
    expect(jsonDeltas.join('')).toBe(JSON.stringify(input));

    const req = fake.requests[0]!;
    expect(req.stream).toBe(true);
    expect(req.body.stream).toBe(true);
    expect(req.response?.content[1]).toMatchObject({ name: 'read', input });
  });

  it('the SDK retries a 429 with retry-after: 0, then succeeds (2 requests recorded)', async () => {
    const { fake, client } = await start([
      { status: 429, type: 'rate_limit_error', message: 'Slow down', retryAfter: 0 },
      { content: [{ type: 'text', text: 'ok' }] },
    ]);
    const msg = await client.messages.create({ model: MODEL, max_tokens: 64, messages: [{ role: 'user', content: 'hi' }] });
    expect(msg.content).toEqual([{ type: 'text', text: 'ok' }]);
    expect(fake.requests).toHaveLength(2);
    expect(fake.requests[0]!.status).toBe(429);
    expect(fake.requests[0]!.error).toEqual({ type: 'rate_limit_error', message: 'Slow down' });
    expect(fake.requests[1]!.headers['x-stainless-retry-count']).toBe('1');
  });

  it('three 529s: the SDK gives up after its two retries and throws the overloaded error', async () => {
    const overloaded = { status: 529, type: 'overloaded_error', message: 'Overloaded', retryAfterMs: 1 } as const;
    const { fake, client } = await start([overloaded, overloaded, overloaded, { content: [{ type: 'text', text: 'never' }] }]);
    const err = await client.messages
      .create({ model: MODEL, max_tokens: 64, messages: [{ role: 'user', content: 'hi' }] })
      .then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.APIError);
    expect(err).toBeInstanceOf(Anthropic.InternalServerError);
    const apiErr = err as InstanceType<typeof Anthropic.APIError>;
    expect(apiErr.status).toBe(529);
    expect(apiErr.type).toBe('overloaded_error');
    expect(apiErr.error).toEqual({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } });
    expect(fake.requests).toHaveLength(3);
  });

  it('a streaming request that gets a 429 is retried too', async () => {
    const { fake, client } = await start([
      { status: 429, retryAfterMs: 1 },
      { content: [{ type: 'text', text: 'streamed after retry' }] },
    ]);
    const final = await client.messages
      .stream({ model: MODEL, max_tokens: 64, messages: [{ role: 'user', content: 'hi' }] })
      .finalMessage();
    expect(final.content).toMatchObject([{ type: 'text', text: 'streamed after retry' }]);
    expect(fake.requests.map((r) => r.status)).toEqual([429, 200]);
    expect(fake.requests[0]!.error?.type).toBe('rate_limit_error');
  });

  it('an overload inside a stream surfaces as an APIError from finalMessage()', async () => {
    const { client } = await start([{ status: 529, inStream: true }]);
    const err = await client.messages
      .stream({ model: MODEL, max_tokens: 64, messages: [{ role: 'user', content: 'hi' }] })
      .finalMessage()
      .then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.APIError);
    expect((err as InstanceType<typeof Anthropic.APIError>).type).toBe('overloaded_error');
  });

  it('a tool_result answering an unknown tool_use id is a 400 surfaced as BadRequestError, without using a turn', async () => {
    const { fake, client } = await start([{ content: [{ type: 'text', text: 'unused' }] }]);
    const err = await client.messages
      .create({
        model: MODEL,
        max_tokens: 64,
        tools: TOOLS,
        messages: [
          { role: 'user', content: 'Investigate.' },
          { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_01real', name: 'grep', input: { pattern: 'x' } }] },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01made_up', content: 'nothing' }] },
        ],
      })
      .then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.BadRequestError);
    const bad = err as InstanceType<typeof Anthropic.BadRequestError>;
    expect(bad.status).toBe(400);
    expect(bad.type).toBe('invalid_request_error');
    expect(bad.message).toContain('toolu_01made_up');
    expect(fake.requests).toHaveLength(1); // 400 is not retried
    expect(fake.requests[0]!.turnIndex).toBeUndefined();
    expect(fake.scriptedRequests).toHaveLength(0);
  });

  it('rejects what the real API rejects', async () => {
    const { fake, client } = await start([]);
    const fails = async (params: Record<string, unknown>, opts: Anthropic.RequestOptions = {}) =>
      client.messages.create(params as unknown as Anthropic.MessageCreateParamsNonStreaming, opts).then(
        () => undefined,
        (e: unknown) => e as InstanceType<typeof Anthropic.APIError>,
      );
    const ok = { model: MODEL, max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] };

    expect((await fails({ model: MODEL, messages: ok.messages }))?.message).toContain('max_tokens: Field required');
    expect((await fails({ ...ok, messages: [] }))?.message).toContain('at least one message');
    expect((await fails({ ...ok, tools: [{ name: 'grep', description: 'no schema' }] }))?.message).toContain('input_schema');
    expect((await fails({ ...ok, tools: [TOOLS[0], TOOLS[0]] }))?.message).toContain('unique');
    const dangling = await fails({
      ...ok,
      messages: [
        { role: 'user', content: 'go' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_01a', name: 'grep', input: {} }] },
        { role: 'user', content: 'no result given' },
      ],
    });
    expect(dangling?.message).toContain('without `tool_result` blocks');
    const five = Array.from({ length: 5 }, (_, i) => ({ type: 'text', text: `s${i}`, cache_control: { type: 'ephemeral' } }));
    expect((await fails({ ...ok, system: five }))?.message).toContain('A maximum of 4 blocks with cache_control');
    const noVersion = await fails(ok, { headers: { 'anthropic-version': null } });
    expect(noVersion?.message).toContain('anthropic-version');
    expect(fake.requests.every((r) => r.status === 400)).toBe(true);

    const anon = new Anthropic({ apiKey: 'x', baseURL: fake.url, maxRetries: 0 });
    const noKey = await anon.messages
      .create(ok as Anthropic.MessageCreateParamsNonStreaming, { headers: { authorization: null } })
      .then(() => undefined, (e: unknown) => e);
    expect(noKey).toBeInstanceOf(Anthropic.AuthenticationError);
  });

  it('records tools and cache_control placement, and simulates cache creation then reads', async () => {
    const script: Script = () => ({ content: [{ type: 'text', text: 'noted' }] });
    const { fake, client } = await start(script);
    const system: Anthropic.TextBlockParam[] = [
      { type: 'text', text: 'You are Redline. '.repeat(200), cache_control: { type: 'ephemeral' } },
    ];
    const repoMap = { type: 'text' as const, text: 'src/a.ts: foo, bar\n'.repeat(100), cache_control: { type: 'ephemeral' as const } };
    const params = (question: string): Anthropic.MessageCreateParamsNonStreaming => ({
      model: MODEL,
      max_tokens: 64,
      system,
      tools: TOOLS,
      messages: [{ role: 'user', content: [repoMap, { type: 'text', text: question }] }],
    });

    const first = await client.messages.create(params('sk-ant-api03-NOT-A-SECRET first question'));
    const second = await client.messages.create(params('second question'));

    const req = fake.requests[0]!;
    expect(req.body.tools?.map((t) => t.name)).toEqual(['grep', 'read']);
    expect(req.body.tools?.[0]?.description).toContain('fixed-string');
    expect(req.body.tools?.[1]?.input_schema?.required).toEqual(['path']);
    expect(cacheBreakpoints(req.body)).toEqual(['tools[1]', 'system[0]', 'messages[0].content[0]']);
    expect(requestText(req.body)).toContain('sk-ant-api03-NOT-A-SECRET');
    expect(requestText(fake.requests[1]!.body)).not.toContain('sk-ant-api03');

    expect(first.usage.cache_creation_input_tokens).toBeGreaterThan(500);
    expect(first.usage.cache_read_input_tokens).toBe(0);
    expect(second.usage.cache_read_input_tokens).toBe(first.usage.cache_creation_input_tokens);
    expect(second.usage.cache_creation_input_tokens).toBe(0);
    expect(second.usage.input_tokens).toBeLessThan(50);
    expect(fake.scriptedRequests.map((r) => r.turnIndex)).toEqual([0, 1]);
  });

  it('a function script sees the request and the turn index; a spent array script answers a non-retryable 500', async () => {
    const seen: number[] = [];
    const { client } = await start((req, i) => {
      seen.push(i);
      const last = req.body.messages?.at(-1);
      return { content: [{ type: 'text', text: `echo: ${typeof last?.content === 'string' ? last.content : '?'}` }] };
    });
    const msg = await client.messages.create({ model: MODEL, max_tokens: 16, messages: [{ role: 'user', content: 'ping' }] });
    expect(msg.content).toEqual([{ type: 'text', text: 'echo: ping' }]);
    expect(seen).toEqual([0]);

    await fake!.close();
    const spent = await startFakeAnthropic([]);
    fake = spent;
    const client2 = new Anthropic({ apiKey: 'k', baseURL: spent.url, maxRetries: 2 });
    const err = await client2.messages
      .create({ model: MODEL, max_tokens: 16, messages: [{ role: 'user', content: 'x' }] })
      .then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.InternalServerError);
    expect(String((err as Error).message)).toContain('script has no turn 0');
    expect(spent.requests).toHaveLength(1);
  });
});
