import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local server that speaks the Anthropic Messages API (`POST /v1/messages`, JSON and SSE streaming) and
 * replays scripted assistant turns, so the real `@anthropic-ai/sdk` can be pointed at it with `baseURL`.
 *
 * - Requests are validated at the level the SDK and a tool loop rely on (auth and version headers, required
 *   fields, tool definitions, `tool_use`/`tool_result` pairing, at most 4 `cache_control` breakpoints);
 *   a request that fails validation gets the API's 400/401 error JSON and does NOT consume a scripted turn.
 * - Every request (even invalid ones, even 404s) is recorded in `requests`, in arrival order.
 * - Usage is estimated (~4 characters per token). Prompt caching is simulated: the first request with a
 *   given prefix (tools → system → messages, up to a `cache_control` block) reports
 *   `cache_creation_input_tokens`; later requests with the same prefix report `cache_read_input_tokens`.
 *   The cache lives as long as the server.
 * - Streaming follows the real event sequence: `message_start`, `ping`, then per block
 *   `content_block_start` / `content_block_delta` (`text_delta`, or `input_json_delta` whose first
 *   `partial_json` is "" and whose JSON is split into a few chunks) / `content_block_stop`, then
 *   `message_delta` (stop_reason, usage) and `message_stop`.
 */

// ---------------------------------------------------------------------------------------------------------
// Script types

export interface TextTurnBlock {
  type: 'text';
  text: string;
}

export interface ToolUseTurnBlock {
  type: 'tool_use';
  /** Filled with a `toolu_01…` id when absent. */
  id?: string;
  name: string;
  input: unknown;
}

export type TurnBlock = TextTurnBlock | ToolUseTurnBlock;

export type StopReason = 'end_turn' | 'tool_use' | 'max_tokens' | 'stop_sequence' | 'refusal';

export interface TurnUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
}

/** An assistant message to answer with. */
export interface AssistantTurn {
  content: TurnBlock[];
  /** Default: `tool_use` when the content has a tool_use block, else `end_turn`. */
  stop_reason?: StopReason;
  /** Overrides the estimated usage, field by field. */
  usage?: Partial<TurnUsage>;
  /** Default: the request's `model`. */
  model?: string;
}

export type ApiErrorType =
  | 'invalid_request_error'
  | 'authentication_error'
  | 'permission_error'
  | 'not_found_error'
  | 'request_too_large'
  | 'rate_limit_error'
  | 'api_error'
  | 'overloaded_error'
  | (string & {});

/** An API error to answer with: `{ type: 'error', error: { type, message } }` and the given status. */
export interface ErrorTurn {
  status: 400 | 401 | 403 | 404 | 408 | 413 | 429 | 500 | 529 | (number & {});
  /** Default derived from the status (429 → rate_limit_error, 529 → overloaded_error, …). */
  type?: ApiErrorType;
  /** Default: a message like the API's. */
  message?: string;
  /** Sent as the `retry-after` header (seconds, or an HTTP date). */
  retryAfter?: number | string;
  /** Sent as the `retry-after-ms` header, which the SDK prefers (lets tests retry without the 0.5 s backoff). */
  retryAfterMs?: number;
  /**
   * For a streaming request only: answer 200 and send the error as an SSE `error` event after
   * `message_start`, the way the API reports an overload in the middle of a stream.
   */
  inStream?: boolean;
}

export type Turn = AssistantTurn | ErrorTurn;

/** A function script gets the recorded request and the index of the scripted turn (0-based, valid requests only). */
export type ScriptFn = (req: RecordedRequest, turnIndex: number) => Turn | Promise<Turn>;
export type Script = Turn[] | ScriptFn;

export const isErrorTurn = (turn: Turn): turn is ErrorTurn => 'status' in turn;

// ---------------------------------------------------------------------------------------------------------
// Recorded requests

export interface CacheControl {
  type: 'ephemeral';
  ttl?: '5m' | '1h';
}

export interface RecordedBlock {
  type: string;
  text?: string;
  id?: string;
  name?: string;
  input?: unknown;
  tool_use_id?: string;
  content?: string | RecordedBlock[];
  is_error?: boolean;
  cache_control?: CacheControl | null;
  [key: string]: unknown;
}

export interface RecordedMessage {
  role: 'user' | 'assistant' | 'system';
  content: string | RecordedBlock[];
}

export interface RecordedTool {
  name: string;
  description?: string;
  input_schema?: { type: 'object'; properties?: Record<string, unknown>; required?: string[]; [key: string]: unknown };
  type?: string;
  cache_control?: CacheControl | null;
  [key: string]: unknown;
}

/** The parsed JSON body; `{}` when the body was not a JSON object (see `rawBody`). */
export interface RecordedBody {
  model?: string;
  max_tokens?: number;
  messages?: RecordedMessage[];
  system?: string | RecordedBlock[];
  tools?: RecordedTool[];
  tool_choice?: { type: string; name?: string; [key: string]: unknown };
  stream?: boolean;
  cache_control?: CacheControl | null;
  [key: string]: unknown;
}

export interface RecordedRequest {
  /** Position among all requests received (0-based). */
  index: number;
  method: string;
  /** Path without the query string, e.g. `/v1/messages`. */
  path: string;
  /** Lower-cased header names. */
  headers: Record<string, string>;
  rawBody: string;
  body: RecordedBody;
  stream: boolean;
  /** HTTP status answered (200 for a stream, even one ending in an in-stream error). */
  status: number;
  /** The error answered (validation failure or scripted error), if any. */
  error?: { type: string; message: string };
  /** Index of the scripted turn used; absent when validation failed before reaching the script. */
  turnIndex?: number;
  /** The assistant message answered (also for streams, as reassembled by a client). */
  response?: FakeMessage;
}

export interface FakeMessage {
  id: string;
  type: 'message';
  role: 'assistant';
  model: string;
  content: Array<
    { type: 'text'; text: string } | { type: 'tool_use'; id: string; name: string; input: unknown; caller: { type: 'direct' } }
  >;
  stop_reason: StopReason;
  stop_sequence: null;
  stop_details: null;
  usage: FakeUsage;
}

export interface FakeUsage extends TurnUsage {
  cache_creation: { ephemeral_5m_input_tokens: number; ephemeral_1h_input_tokens: number };
  service_tier: 'standard';
}

export interface FakeAnthropicOptions {
  /** Prefixes shorter than this are not cached (the real API's minimum is 1024–4096 tokens by model). Default 0. */
  minCacheableTokens?: number;
}

export interface FakeAnthropic {
  /** Base URL for the SDK's `baseURL`, e.g. `http://127.0.0.1:41234` (no trailing slash). */
  url: string;
  requests: RecordedRequest[];
  /** Requests to `POST /v1/messages` that reached the script (i.e. passed validation). */
  readonly scriptedRequests: RecordedRequest[];
  close(): Promise<void>;
}

// ---------------------------------------------------------------------------------------------------------
// Helpers for assertions

/**
 * Where `cache_control` breakpoints sit in a request body, as paths: `tools[2]`, `system[0]`,
 * `messages[0].content[1]`, `messages[3].content[0].content[0]` (inside a tool_result), `cache_control` (top level).
 */
export function cacheBreakpoints(body: RecordedBody): string[] {
  const out: string[] = [];
  if (body.cache_control) out.push('cache_control');
  (Array.isArray(body.tools) ? body.tools : []).forEach((t, i) => {
    if (isObject(t) && t.cache_control) out.push(`tools[${i}]`);
  });
  if (Array.isArray(body.system)) {
    body.system.forEach((b, i) => {
      if (isObject(b) && b.cache_control) out.push(`system[${i}]`);
    });
  }
  (Array.isArray(body.messages) ? body.messages : []).forEach((m, i) => {
    if (!isObject(m) || !Array.isArray(m.content)) return;
    m.content.forEach((b, j) => {
      if (!isObject(b)) return;
      if (b.cache_control) out.push(`messages[${i}].content[${j}]`);
      if (Array.isArray(b.content)) {
        b.content.forEach((inner, k) => {
          if (isObject(inner) && inner.cache_control) out.push(`messages[${i}].content[${j}].content[${k}]`);
        });
      }
    });
  });
  return out;
}

/** Every string the request carries (system, messages, tool results, tool definitions), joined: for "no secret sent" checks. */
export function requestText(body: RecordedBody): string {
  const parts: string[] = [];
  const walk = (v: unknown): void => {
    if (typeof v === 'string') parts.push(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (isObject(v)) Object.values(v).forEach(walk);
  };
  walk(body.system);
  walk(body.messages);
  walk(body.tools);
  return parts.join('\n');
}

/** Rough token estimate the server uses (~4 characters per token, at least 1 for non-empty text). */
export function estimateTokens(value: unknown): number {
  const s = typeof value === 'string' ? value : JSON.stringify(value ?? '');
  return s.length === 0 ? 0 : Math.max(1, Math.ceil(s.length / 4));
}

// ---------------------------------------------------------------------------------------------------------
// Server

const DEFAULT_ERROR_TYPE: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  408: 'timeout_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
};

const DEFAULT_ERROR_MESSAGE: Record<string, string> = {
  invalid_request_error: 'Invalid request',
  authentication_error: 'invalid x-api-key',
  permission_error: 'Your API key does not have permission to use the specified resource.',
  not_found_error: 'Not found',
  timeout_error: 'Request timed out',
  request_too_large: 'Request exceeds the maximum allowed number of bytes.',
  rate_limit_error: 'Number of request tokens has exceeded your per-minute rate limit',
  api_error: 'Internal server error',
  overloaded_error: 'Overloaded',
};

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
function fakeId(prefix: string): string {
  const bytes = randomBytes(22);
  let s = '';
  for (const b of bytes) s += BASE62[b % 62];
  return `${prefix}_01${s}`;
}

class ValidationError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
  ) {
    super(message);
  }
}

export async function startFakeAnthropic(script: Script, options: FakeAnthropicOptions = {}): Promise<FakeAnthropic> {
  const requests: RecordedRequest[] = [];
  const cache = new Set<string>();
  let turnCounter = 0;
  const minCacheable = options.minCacheableTokens ?? 0;

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) {
        sendError(res, 500, 'api_error', `fake-anthropic: ${String(err)}`, { 'x-should-retry': 'false' });
      } else {
        res.end();
      }
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const rawBody = await readBody(req);
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) {
      if (v !== undefined) headers[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
    }
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    let parsed: unknown;
    let parseFailed = false;
    try {
      parsed = rawBody.length ? JSON.parse(rawBody) : undefined;
    } catch {
      parseFailed = true;
    }
    const body: RecordedBody = isObject(parsed) ? (parsed as RecordedBody) : {};
    const record: RecordedRequest = {
      index: requests.length,
      method: req.method ?? 'GET',
      path,
      headers,
      rawBody,
      body,
      stream: body.stream === true,
      status: 0,
    };
    requests.push(record);

    const fail = (status: number, type: string, message: string, extra: Record<string, string> = {}): void => {
      record.status = status;
      record.error = { type, message };
      sendError(res, status, type, message, extra);
    };

    if (path !== '/v1/messages') return fail(404, 'not_found_error', 'Not found');
    if (record.method !== 'POST') return fail(405, 'invalid_request_error', `Method ${record.method} not allowed`);

    try {
      validate(headers, parsed, parseFailed);
    } catch (err) {
      if (err instanceof ValidationError) return fail(err.status, err.type, err.message);
      throw err;
    }

    const turnIndex = turnCounter++;
    record.turnIndex = turnIndex;
    let turn: Turn | undefined;
    if (Array.isArray(script)) {
      turn = script[turnIndex];
      if (!turn) {
        return fail(500, 'api_error', `fake-anthropic: the script has no turn ${turnIndex} (it has ${script.length})`, {
          'x-should-retry': 'false',
        });
      }
    } else {
      turn = await script(record, turnIndex);
    }

    if (isErrorTurn(turn)) {
      const type = turn.type ?? DEFAULT_ERROR_TYPE[turn.status] ?? 'api_error';
      const message = turn.message ?? DEFAULT_ERROR_MESSAGE[type] ?? 'Error';
      const extra: Record<string, string> = {};
      if (turn.retryAfter !== undefined) extra['retry-after'] = String(turn.retryAfter);
      if (turn.retryAfterMs !== undefined) extra['retry-after-ms'] = String(turn.retryAfterMs);
      if (turn.inStream && record.stream) {
        record.status = 200;
        record.error = { type, message };
        const msg = buildMessage({ content: [] }, body, cache, minCacheable);
        startSse(res);
        sse(res, 'message_start', { type: 'message_start', message: { ...msg, content: [], stop_reason: null, usage: { ...msg.usage, output_tokens: 1 } } });
        sse(res, 'error', { type: 'error', error: { type, message } });
        res.end();
        return;
      }
      return fail(turn.status, type, message, extra);
    }

    const message = buildMessage(turn, body, cache, minCacheable);
    record.status = 200;
    record.response = message;
    if (record.stream) writeStream(res, message);
    else sendJson(res, 200, message);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    get scriptedRequests() {
      return requests.filter((r) => r.turnIndex !== undefined);
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  };
}

// ---------------------------------------------------------------------------------------------------------
// Validation (messages modelled on the API's own)

function validate(headers: Record<string, string>, parsed: unknown, parseFailed: boolean): void {
  const bad = (message: string): never => {
    throw new ValidationError(400, 'invalid_request_error', message);
  };
  if (!headers['x-api-key'] && !headers['authorization']) {
    throw new ValidationError(401, 'authentication_error', 'x-api-key header is required');
  }
  if (!headers['anthropic-version']) bad('anthropic-version: header is required');
  if (parseFailed) bad('There was an error parsing the body of your request. Please ensure the body is valid JSON.');
  if (!isObject(parsed)) bad('Request body must be a JSON object');
  const body = parsed as Record<string, unknown>;

  if (body.model === undefined) bad('model: Field required');
  if (typeof body.model !== 'string' || body.model.length === 0) bad('model: Input should be a valid string');
  if (body.max_tokens === undefined) bad('max_tokens: Field required');
  if (typeof body.max_tokens !== 'number' || !Number.isInteger(body.max_tokens)) bad('max_tokens: Input should be a valid integer');
  if ((body.max_tokens as number) < 1) bad('max_tokens: Input should be greater than or equal to 1');
  if (body.stream !== undefined && typeof body.stream !== 'boolean') bad('stream: Input should be a valid boolean');
  if (body.messages === undefined) bad('messages: Field required');
  if (!Array.isArray(body.messages)) bad('messages: Input should be a valid list');
  const messages = body.messages as unknown[];
  if (messages.length === 0) bad('messages: at least one message is required');

  let breakpoints = 0;
  const checkCacheControl = (where: string, cc: unknown): void => {
    if (cc === undefined || cc === null) return;
    if (!isObject(cc) || cc.type !== 'ephemeral') bad(`${where}.cache_control.type: Input should be 'ephemeral'`);
    const ttl = (cc as Record<string, unknown>).ttl;
    if (ttl !== undefined && ttl !== '5m' && ttl !== '1h') bad(`${where}.cache_control.ttl: Input should be '5m' or '1h'`);
    breakpoints++;
  };
  checkCacheControl('body', body.cache_control);

  // system
  if (body.system !== undefined) {
    if (Array.isArray(body.system)) {
      body.system.forEach((b, i) => {
        if (!isObject(b) || b.type !== 'text' || typeof b.text !== 'string') bad(`system.${i}: Input should be a text block`);
        checkCacheControl(`system.${i}`, (b as Record<string, unknown>).cache_control);
      });
    } else if (typeof body.system !== 'string') bad('system: Input should be a valid string or list of text blocks');
  }

  // tools
  const toolNames = new Set<string>();
  if (body.tools !== undefined) {
    if (!Array.isArray(body.tools)) bad('tools: Input should be a valid list');
    (body.tools as unknown[]).forEach((t, i) => {
      if (!isObject(t)) return bad(`tools.${i}: Input should be a valid dictionary`);
      if (typeof t.name !== 'string') bad(`tools.${i}.name: Field required`);
      const name = t.name as string;
      if (!/^[a-zA-Z0-9_-]{1,128}$/.test(name)) bad(`tools.${i}.name: String should match pattern '^[a-zA-Z0-9_-]{1,128}$'`);
      if (toolNames.has(name)) bad('tools: Tool names must be unique.');
      toolNames.add(name);
      if (t.type === undefined || t.type === 'custom') {
        if (t.description !== undefined && typeof t.description !== 'string') bad(`tools.${i}.description: Input should be a valid string`);
        if (t.input_schema === undefined) bad(`tools.${i}.custom.input_schema: Field required`);
        if (!isObject(t.input_schema)) bad(`tools.${i}.custom.input_schema: Input should be a valid dictionary`);
        if ((t.input_schema as Record<string, unknown>).type !== 'object') bad(`tools.${i}.custom.input_schema.type: Input should be 'object'`);
      }
      checkCacheControl(`tools.${i}`, t.cache_control);
    });
  }
  if (body.tool_choice !== undefined) {
    const tc = body.tool_choice;
    if (!isObject(tc) || !['auto', 'any', 'tool', 'none'].includes(String(tc.type))) bad("tool_choice.type: Input should be 'auto', 'any', 'tool' or 'none'");
    const choice = tc as Record<string, unknown>;
    if (choice.type === 'tool' && !toolNames.has(String(choice.name))) bad(`tool_choice.name: Tool '${String(choice.name)}' not found in tools`);
    if (choice.type !== 'none' && choice.type !== 'auto' && toolNames.size === 0) bad('tool_choice may only be specified while providing tools.');
  }

  // messages: shape, then tool_use/tool_result pairing
  const toolUseIdsOf = new Map<number, string[]>();
  messages.forEach((m, i) => {
    if (!isObject(m)) return bad(`messages.${i}: Input should be a valid dictionary`);
    if (m.role !== 'user' && m.role !== 'assistant' && m.role !== 'system') bad(`messages.${i}.role: Input should be 'user' or 'assistant'`);
    if (typeof m.content === 'string') return;
    if (!Array.isArray(m.content)) bad(`messages.${i}.content: Input should be a valid string or list of content blocks`);
    const ids: string[] = [];
    (m.content as unknown[]).forEach((b, j) => {
      const at = `messages.${i}.content.${j}`;
      if (!isObject(b) || typeof b.type !== 'string') return bad(`${at}: Input should be a valid content block`);
      checkCacheControl(at, b.cache_control);
      switch (b.type) {
        case 'text':
          if (typeof b.text !== 'string') bad(`${at}.text.text: Field required`);
          if ((b.text as string).length === 0) bad(`${at}: text content blocks must be non-empty`);
          break;
        case 'tool_use':
          if (m.role !== 'assistant') bad(`${at}: tool_use blocks may only appear in assistant messages`);
          if (typeof b.id !== 'string' || typeof b.name !== 'string') bad(`${at}.tool_use: id and name are required`);
          if (!isObject(b.input)) bad(`${at}.tool_use.input: Input should be a valid dictionary`);
          ids.push(b.id as string);
          break;
        case 'tool_result':
          if (m.role !== 'user') bad(`${at}: tool_result blocks may only appear in user messages`);
          if (typeof b.tool_use_id !== 'string') bad(`${at}.tool_result.tool_use_id: Field required`);
          if (Array.isArray(b.content)) {
            b.content.forEach((inner, k) => {
              if (isObject(inner)) checkCacheControl(`${at}.content.${k}`, inner.cache_control);
            });
          } else if (b.content !== undefined && typeof b.content !== 'string') {
            bad(`${at}.tool_result.content: Input should be a valid string or list`);
          }
          break;
        default:
          break; // images, documents, thinking…: accepted as is
      }
    });
    if (m.role === 'assistant') toolUseIdsOf.set(i, ids);
  });

  messages.forEach((raw, i) => {
    const m = raw as RecordedMessage;
    const prevIds = i > 0 && (messages[i - 1] as RecordedMessage).role === 'assistant' ? (toolUseIdsOf.get(i - 1) ?? []) : [];
    const blocks = Array.isArray(m.content) ? m.content : [];
    const resultIds = blocks.filter((b) => b.type === 'tool_result').map((b) => b.tool_use_id as string);
    if (m.role === 'user') {
      const unknownIds = resultIds.filter((id) => !prevIds.includes(id));
      if (unknownIds.length) {
        bad(
          `messages.${i}.content.${blocks.findIndex((b) => b.type === 'tool_result' && unknownIds.includes(b.tool_use_id as string))}: ` +
            `unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${unknownIds.join(', ')}. ` +
            'Each `tool_result` block must have a corresponding `tool_use` block in the previous message.',
        );
      }
      const dupes = resultIds.filter((id, k) => resultIds.indexOf(id) !== k);
      if (dupes.length) bad(`messages.${i}: duplicate \`tool_use_id\` in \`tool_result\` blocks: ${dupes.join(', ')}`);
    }
  });

  messages.forEach((raw, i) => {
    const m = raw as RecordedMessage;
    if (m.role === 'assistant' && i + 1 < messages.length) {
      const next = messages[i + 1] as RecordedMessage;
      const answered = new Set(
        Array.isArray(next.content) ? next.content.filter((b) => b.type === 'tool_result').map((b) => b.tool_use_id) : [],
      );
      const missing = (toolUseIdsOf.get(i) ?? []).filter((id) => next.role !== 'user' || !answered.has(id));
      if (missing.length) {
        bad(
          `messages.${i}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(', ')}. ` +
            'Each `tool_use` block must have a corresponding `tool_result` block in the next message.',
        );
      }
    }
  });

  if (breakpoints > 4) bad(`A maximum of 4 blocks with cache_control may be provided. Found ${breakpoints}.`);
}

// ---------------------------------------------------------------------------------------------------------
// Building the answer

interface Segment {
  json: string;
  tokens: number;
  cache?: CacheControl;
}

/** The request in prompt order (tools → system → messages), one segment per cacheable unit. */
function segmentsOf(body: RecordedBody): Segment[] {
  const segs: Segment[] = [];
  const push = (v: unknown, cc: unknown): void => {
    const json = JSON.stringify(v);
    segs.push({ json, tokens: estimateTokens(json), ...(isObject(cc) ? { cache: cc as unknown as CacheControl } : {}) });
  };
  for (const t of body.tools ?? []) push(t, t.cache_control);
  if (typeof body.system === 'string') push(body.system, undefined);
  else for (const b of body.system ?? []) push(b, b.cache_control);
  for (const m of body.messages ?? []) {
    if (typeof m.content === 'string') push({ role: m.role, content: m.content }, undefined);
    else {
      m.content.forEach((b, j) => {
        // A breakpoint inside a tool_result's content marks the tool_result block itself.
        const inner = Array.isArray(b.content) ? b.content.find((x) => isObject(x) && x.cache_control)?.cache_control : undefined;
        push(j === 0 ? { role: m.role, block: b } : b, b.cache_control ?? inner);
      });
    }
  }
  if (body.cache_control && segs.length) {
    const last = segs[segs.length - 1]!;
    if (!last.cache) last.cache = body.cache_control;
  }
  return segs;
}

function computeUsage(body: RecordedBody, cache: Set<string>, minCacheable: number): Omit<TurnUsage, 'output_tokens'> & { ttl1h: number } {
  const segs = segmentsOf(body);
  const model = body.model ?? '';
  const total = segs.reduce((n, s) => n + s.tokens, 0) + 3 * (body.messages?.length ?? 0);
  const hash = createHash('sha256').update(model);
  let cum = 0;
  const points: Array<{ key: string; tokens: number; ttl: string }> = [];
  for (const s of segs) {
    hash.update(s.json).update('\u0000');
    cum += s.tokens;
    if (s.cache) points.push({ key: hash.copy().digest('hex'), tokens: cum, ttl: s.cache.ttl ?? '5m' });
  }
  const eligible = points.filter((p) => p.tokens >= minCacheable);
  let read = 0;
  for (const p of eligible) if (cache.has(p.key)) read = Math.max(read, p.tokens);
  const last = eligible[eligible.length - 1];
  const creation = last && last.tokens > read ? last.tokens - read : 0;
  for (const p of eligible) cache.add(p.key);
  return {
    input_tokens: Math.max(1, total - read - creation),
    cache_read_input_tokens: read,
    cache_creation_input_tokens: creation,
    ttl1h: last?.ttl === '1h' ? creation : 0,
  };
}

function buildMessage(turn: AssistantTurn, body: RecordedBody, cache: Set<string>, minCacheable: number): FakeMessage {
  const content: FakeMessage['content'] = turn.content.map((b) =>
    b.type === 'text'
      ? { type: 'text', text: b.text }
      : { type: 'tool_use', id: b.id ?? fakeId('toolu'), name: b.name, input: b.input ?? {}, caller: { type: 'direct' } },
  );
  const { ttl1h, ...computed } = computeUsage(body, cache, minCacheable);
  const output = Math.max(1, content.reduce((n, b) => n + estimateTokens(b.type === 'text' ? b.text : JSON.stringify(b.input)), 0));
  const usage: TurnUsage = { ...computed, output_tokens: output, ...turn.usage };
  return {
    id: fakeId('msg'),
    type: 'message',
    role: 'assistant',
    model: turn.model ?? body.model ?? 'claude-fake',
    content,
    stop_reason: turn.stop_reason ?? (content.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn'),
    stop_sequence: null,
    stop_details: null,
    usage: {
      ...usage,
      cache_creation: {
        ephemeral_5m_input_tokens: usage.cache_creation_input_tokens - Math.min(ttl1h, usage.cache_creation_input_tokens),
        ephemeral_1h_input_tokens: Math.min(ttl1h, usage.cache_creation_input_tokens),
      },
      service_tier: 'standard',
    },
  };
}

// ---------------------------------------------------------------------------------------------------------
// Wire

function startSse(res: ServerResponse): void {
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    'request-id': fakeId('req'),
  });
}

function sse(res: ServerResponse, event: string, data: unknown): void {
  res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
}

/** Splits a string into `n` roughly equal, non-empty pieces (fewer when the string is short). */
export function splitChunks(s: string, n: number): string[] {
  if (s.length === 0) return [];
  const size = Math.max(1, Math.ceil(s.length / n));
  const out: string[] = [];
  for (let i = 0; i < s.length; i += size) out.push(s.slice(i, i + size));
  return out;
}

function writeStream(res: ServerResponse, message: FakeMessage): void {
  startSse(res);
  const { usage } = message;
  sse(res, 'message_start', {
    type: 'message_start',
    message: { ...message, content: [], stop_reason: null, usage: { ...usage, output_tokens: 1 } },
  });
  sse(res, 'ping', { type: 'ping' });
  message.content.forEach((block, index) => {
    if (block.type === 'text') {
      sse(res, 'content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
      for (const text of splitChunks(block.text, 3)) {
        sse(res, 'content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text } });
      }
    } else {
      sse(res, 'content_block_start', {
        type: 'content_block_start',
        index,
        content_block: { type: 'tool_use', id: block.id, name: block.name, input: {}, caller: block.caller },
      });
      const json = JSON.stringify(block.input);
      for (const partial_json of ['', ...splitChunks(json, 3)]) {
        sse(res, 'content_block_delta', { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json } });
      }
    }
    sse(res, 'content_block_stop', { type: 'content_block_stop', index });
  });
  sse(res, 'message_delta', {
    type: 'message_delta',
    delta: { stop_reason: message.stop_reason, stop_sequence: null, stop_details: null },
    usage: {
      input_tokens: usage.input_tokens,
      cache_creation_input_tokens: usage.cache_creation_input_tokens,
      cache_read_input_tokens: usage.cache_read_input_tokens,
      output_tokens: usage.output_tokens,
    },
  });
  sse(res, 'message_stop', { type: 'message_stop' });
  res.end();
}

function sendJson(res: ServerResponse, status: number, data: unknown, extra: Record<string, string> = {}): void {
  const payload = JSON.stringify(data);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(payload),
    'request-id': fakeId('req'),
    ...extra,
  });
  res.end(payload);
}

function sendError(res: ServerResponse, status: number, type: string, message: string, extra: Record<string, string> = {}): void {
  sendJson(res, status, { type: 'error', error: { type, message } }, extra);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
