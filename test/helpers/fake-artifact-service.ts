import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { crc32, inflateRawSync } from 'node:zlib';

/**
 * A local server standing in for the GitHub Actions artifact service (v2, "results" service) as the real
 * `@actions/artifact` client talks to it when `ACTIONS_RESULTS_URL` points here:
 *
 * - Twirp JSON: `POST /twirp/github.actions.results.api.v1.ArtifactService/CreateArtifact` and
 *   `/FinalizeArtifact` (the only two an upload calls), plus `ListArtifacts` and `GetSignedArtifactURL`
 *   for completeness. Every call must carry `Authorization: Bearer <token>` with the service's runtime
 *   token (401 otherwise) and the run/job backend ids of that token's `Actions.Results` scope (403
 *   otherwise). Answers use the proto field names (`signed_upload_url`, `artifact_id`), as a Twirp
 *   server does by default and as the client expects when it masks the URL's signature (protobuf-ts reads
 *   camelCase too). Errors are Twirp's JSON (`{ code, msg }`) with its HTTP statuses.
 * - The signed upload URL handed out by CreateArtifact: an Azure Blob endpoint in the IP-style form
 *   `/<account>/<container>/<blob>?sig=…`, answering what `@azure/storage-blob`'s
 *   `BlockBlobClient.uploadStream` does (`PUT ?comp=block&blockid=…` per block, then
 *   `PUT ?comp=blocklist` with the XML block list), and also a single-shot `PUT` with
 *   `x-ms-blob-type: BlockBlob`. Responses are 201 with `etag`, `last-modified`, `content-md5`,
 *   `x-ms-request-id`, `x-ms-version`, `date`, `x-ms-request-server-encrypted`; errors are Azure's XML with
 *   `x-ms-error-code`.
 * - FinalizeArtifact checks the reported `size` and `hash` (`sha256:<hex>`) against the committed blob, as
 *   the real service verifies the upload (400 `invalid_argument` on a mismatch).
 * - Every request is recorded in `requests` (with its raw body), in arrival order; artifacts, with their
 *   committed zip bytes, in `artifacts`. `readZip` lists a zip's entries for the tests.
 * - `fail(op, status, times)` makes the next `times` (default: all) calls of an operation answer `status`.
 */

export const TWIRP_PREFIX = '/twirp/github.actions.results.api.v1.ArtifactService/';
const ACCOUNT = 'devstoreaccount1';
const CONTAINER = 'actions-results';

export type FakeArtifactOp =
  | 'CreateArtifact'
  | 'FinalizeArtifact'
  | 'ListArtifacts'
  | 'GetSignedArtifactURL'
  | 'StageBlock'
  | 'CommitBlockList'
  | 'PutBlob';

export interface RecordedRequest {
  method: string;
  /** Path without the query. */
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: Buffer;
  /** The Twirp method or blob operation it was taken for (undefined for unknown routes). */
  op?: FakeArtifactOp;
  /** The status answered. */
  status: number;
  /** Twirp calls: the parsed JSON body. */
  json?: Record<string, unknown>;
}

export interface FakeArtifact {
  id: number;
  name: string;
  workflowRunBackendId: string;
  workflowJobRunBackendId: string;
  mimeType?: string;
  expiresAt?: string;
  version?: number;
  /** Blob path under the account (`actions-results/<run>/<job>/<name>.zip`). */
  blobPath: string;
  sig: string;
  /** Staged, uncommitted blocks by block id. */
  blocks: Map<string, Buffer>;
  /** The committed blob (the zip), once the block list is committed or a single PUT arrived. */
  blob?: Buffer;
  blobContentType?: string;
  /** What FinalizeArtifact reported, once it succeeded. */
  finalized?: { size: number; hash?: string };
}

export interface FakeArtifactService {
  /** For `ACTIONS_RESULTS_URL`. */
  url: string;
  /** For `ACTIONS_RUNTIME_TOKEN`: the only bearer token the service accepts. */
  token: string;
  runBackendId: string;
  jobBackendId: string;
  requests: RecordedRequest[];
  artifacts: FakeArtifact[];
  /** The next `times` (default: every) call(s) of `op` answer `status` with an error body. */
  fail(op: FakeArtifactOp, status: number, times?: number): void;
  /** Requests taken for one operation. */
  calls(op: FakeArtifactOp): RecordedRequest[];
  close(): Promise<void>;
}

// ---------------------------------------------------------------------------------------------------------
// Runtime token

const b64url = (s: string | Buffer): string => Buffer.from(s).toString('base64url');

/**
 * An unsigned (`alg: none`) but well-formed JWT like the runner's `ACTIONS_RUNTIME_TOKEN`: the client only
 * decodes it, and reads the run and job backend ids from the `Actions.Results:<run>:<job>` scope of `scp`.
 */
export function makeRuntimeToken(runBackendId: string, jobBackendId: string): string {
  const now = Math.floor(Date.now() / 1000);
  const header = { typ: 'JWT', alg: 'none' };
  const payload = {
    nameid: 'dddddddd-dddd-dddd-dddd-dddddddddddd',
    scp: `Actions.ExampleScope Actions.UploadArtifacts:${runBackendId}:${jobBackendId} Actions.Results:${runBackendId}:${jobBackendId}`,
    iss: 'vstoken.actions.githubusercontent.com',
    aud: 'vstoken.actions.githubusercontent.com',
    nbf: now - 60,
    iat: now - 60,
    exp: now + 6 * 3600,
  };
  return `${b64url(JSON.stringify(header))}.${b64url(JSON.stringify(payload))}.`;
}

/** The `Actions.Results` ids of a runtime token, or undefined when it is not one. */
export function runtimeTokenIds(token: string): { run: string; job: string } | undefined {
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  try {
    const payload = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8')) as { scp?: unknown };
    if (typeof payload.scp !== 'string') return undefined;
    for (const scope of payload.scp.split(' ')) {
      const s = scope.split(':');
      if (s[0] === 'Actions.Results' && s.length === 3 && s[1] && s[2]) return { run: s[1], job: s[2] };
    }
  } catch {
    return undefined;
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------------------
// Server

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const TWIRP_STATUS: Record<number, string> = {
  400: 'invalid_argument',
  401: 'unauthenticated',
  403: 'permission_denied',
  404: 'not_found',
  409: 'already_exists',
  412: 'failed_precondition',
  429: 'resource_exhausted',
  500: 'internal',
  502: 'unavailable',
  503: 'unavailable',
  504: 'deadline_exceeded',
};

const AZURE_CODE: Record<number, string> = {
  400: 'InvalidInput',
  403: 'AuthorizationFailure',
  404: 'BlobNotFound',
  409: 'BlobAlreadyExists',
  500: 'InternalError',
  503: 'ServerBusy',
};

export async function startFakeArtifactService(
  opts: { runBackendId?: string; jobBackendId?: string; firstArtifactId?: number } = {},
): Promise<FakeArtifactService> {
  const runBackendId = opts.runBackendId ?? randomUUID();
  const jobBackendId = opts.jobBackendId ?? randomUUID();
  const token = makeRuntimeToken(runBackendId, jobBackendId);
  const requests: RecordedRequest[] = [];
  const artifacts: FakeArtifact[] = [];
  const failures = new Map<FakeArtifactOp, { status: number; left: number }>();
  let nextId = opts.firstArtifactId ?? 4_200_001;
  let origin = '';

  const injected = (op: FakeArtifactOp): number | undefined => {
    const f = failures.get(op);
    if (!f || f.left <= 0) return undefined;
    f.left--;
    return f.status;
  };

  // --- Twirp ---------------------------------------------------------------------------------------------

  function twirp(method: string, rec: RecordedRequest): { status: number; body: unknown } {
    const auth = rec.headers['authorization'];
    if (auth !== `Bearer ${token}`) throw new HttpError(401, 'unauthenticated', 'invalid or missing runtime token');
    if (!String(rec.headers['content-type'] ?? '').startsWith('application/json')) {
      throw new HttpError(415, 'bad_route', 'this fake speaks Twirp JSON only');
    }
    let json: Record<string, unknown>;
    try {
      json = JSON.parse(rec.body.toString('utf8')) as Record<string, unknown>;
    } catch {
      throw new HttpError(400, 'malformed', 'the body is not JSON');
    }
    rec.json = json;
    if (json['workflow_run_backend_id'] !== runBackendId || json['workflow_job_run_backend_id'] !== jobBackendId) {
      throw new HttpError(403, 'permission_denied', 'the backend ids do not match the runtime token');
    }
    const failing = injected(rec.op!);
    if (failing) throw new HttpError(failing, TWIRP_STATUS[failing] ?? 'unknown', `injected failure of ${method}`);

    switch (method) {
      case 'CreateArtifact': {
        const name = json['name'];
        if (typeof name !== 'string' || !name) throw new HttpError(400, 'invalid_argument', 'name is required');
        if (json['version'] !== 7) throw new HttpError(400, 'invalid_argument', `unsupported version ${String(json['version'])}`);
        if (artifacts.some((a) => a.name === name)) {
          throw new HttpError(409, 'already_exists', `an artifact with this name already exists on the workflow run: ${name}`);
        }
        const blobPath = `${CONTAINER}/${runBackendId}/${jobBackendId}/${encodeURIComponent(name)}.zip`;
        const sig = randomBytes(24).toString('base64');
        const a: FakeArtifact = {
          id: nextId++,
          name,
          workflowRunBackendId: runBackendId,
          workflowJobRunBackendId: jobBackendId,
          ...(typeof json['mime_type'] === 'string' ? { mimeType: json['mime_type'] } : {}),
          ...(typeof json['expires_at'] === 'string' ? { expiresAt: json['expires_at'] } : {}),
          version: 7,
          blobPath,
          sig,
          blocks: new Map(),
        };
        artifacts.push(a);
        const q = new URLSearchParams({ sv: '2024-08-04', se: new Date(Date.now() + 3_600_000).toISOString(), sr: 'b', sp: 'cw', sig });
        return { status: 200, body: { ok: true, signed_upload_url: `${origin}/${ACCOUNT}/${blobPath}?${q}` } };
      }
      case 'FinalizeArtifact': {
        const a = artifacts.find((x) => x.name === json['name']);
        if (!a) throw new HttpError(404, 'not_found', `no artifact named ${String(json['name'])} was created`);
        if (a.finalized) throw new HttpError(409, 'already_exists', 'the artifact is already finalized');
        if (!a.blob) throw new HttpError(412, 'failed_precondition', 'nothing was uploaded to the signed URL');
        const size = Number(json['size']);
        if (typeof json['size'] !== 'string' || !Number.isInteger(size) || size !== a.blob.length) {
          throw new HttpError(400, 'invalid_argument', `size ${String(json['size'])} does not match the ${a.blob.length} bytes uploaded`);
        }
        const hash = json['hash'];
        if (hash !== undefined) {
          const want = `sha256:${createHash('sha256').update(a.blob).digest('hex')}`;
          if (hash !== want) throw new HttpError(400, 'invalid_argument', `hash ${String(hash)} does not match ${want}`);
        }
        a.finalized = { size, ...(typeof hash === 'string' ? { hash } : {}) };
        return { status: 200, body: { ok: true, artifact_id: String(a.id) } };
      }
      case 'ListArtifacts': {
        const idFilter = json['id_filter'];
        const nameFilter = json['name_filter'];
        const list = artifacts
          .filter((a) => a.finalized)
          .filter((a) => nameFilter === undefined || a.name === nameFilter)
          .filter((a) => idFilter === undefined || String(a.id) === String(idFilter));
        return {
          status: 200,
          body: {
            artifacts: list.map((a) => ({
              workflow_run_backend_id: a.workflowRunBackendId,
              workflow_job_run_backend_id: a.workflowJobRunBackendId,
              database_id: String(a.id),
              name: a.name,
              size: String(a.blob?.length ?? 0),
              created_at: new Date().toISOString(),
              ...(a.finalized?.hash ? { digest: a.finalized.hash } : {}),
            })),
          },
        };
      }
      case 'GetSignedArtifactURL': {
        const a = artifacts.find((x) => x.finalized && x.name === json['name']);
        if (!a) throw new HttpError(404, 'not_found', 'artifact not found');
        return { status: 200, body: { signed_url: `${origin}/${ACCOUNT}/${a.blobPath}?sig=${encodeURIComponent(a.sig)}` } };
      }
      default:
        throw new HttpError(404, 'bad_route', `no handler for ${method}`);
    }
  }

  // --- Azure Blob ----------------------------------------------------------------------------------------

  function blob(rec: RecordedRequest, res: ServerResponse): void {
    const prefix = `/${ACCOUNT}/`;
    const a = rec.path.startsWith(prefix) ? artifacts.find((x) => x.blobPath === rec.path.slice(prefix.length)) : undefined;
    if (!a || rec.query.get('sig') !== a.sig) {
      throw new HttpError(403, 'AuthenticationFailed', 'Server failed to authenticate the request. Make sure the signature is formed correctly.');
    }
    if (a.finalized) throw new HttpError(409, 'BlobImmutableDueToPolicy', 'the artifact is finalized');
    if (rec.method !== 'PUT') throw new HttpError(405, 'UnsupportedHttpVerb', `${rec.method} is not accepted on a signed upload URL`);
    const length = Number(rec.headers['content-length'] ?? NaN);
    if (!Number.isInteger(length) || length !== rec.body.length) {
      throw new HttpError(411, 'MissingContentLengthHeader', 'Content-Length is missing or does not match the body');
    }
    const comp = rec.query.get('comp');
    rec.op = comp === 'block' ? 'StageBlock' : comp === 'blocklist' ? 'CommitBlockList' : 'PutBlob';
    const failing = injected(rec.op);
    if (failing) throw new HttpError(failing, AZURE_CODE[failing] ?? 'InternalError', `injected failure of ${rec.op}`);

    if (rec.op === 'StageBlock') {
      const id = rec.query.get('blockid');
      if (!id || Buffer.from(id, 'base64').length === 0 || Buffer.from(id, 'base64').length > 64) {
        throw new HttpError(400, 'InvalidQueryParameterValue', 'blockid must be base64 of at most 64 bytes');
      }
      a.blocks.set(id, rec.body);
      created(res, rec, { 'content-md5': md5(rec.body) });
      return;
    }
    if (rec.op === 'CommitBlockList') {
      const xml = rec.body.toString('utf8');
      if (!/^(<\?xml[^>]*\?>)?\s*<BlockList>[\s\S]*<\/BlockList>\s*$/.test(xml)) {
        throw new HttpError(400, 'InvalidXmlDocument', 'the block list is not a <BlockList> document');
      }
      const ids = [...xml.matchAll(/<(Latest|Uncommitted|Committed)>([^<]*)<\/\1>/g)].map((m) => m[2]!);
      const parts: Buffer[] = [];
      for (const id of ids) {
        const b = a.blocks.get(id);
        if (!b) throw new HttpError(400, 'InvalidBlockList', `block ${id} was not staged`);
        parts.push(b);
      }
      a.blob = Buffer.concat(parts);
      a.blocks.clear();
      const ct = rec.headers['x-ms-blob-content-type'];
      if (typeof ct === 'string') a.blobContentType = ct;
      created(res, rec, { etag: etag(a.blob), 'last-modified': new Date().toUTCString(), 'x-ms-content-crc64': randomBytes(8).toString('base64') });
      return;
    }
    if (rec.headers['x-ms-blob-type'] !== 'BlockBlob') {
      throw new HttpError(400, 'MissingRequiredHeader', 'x-ms-blob-type: BlockBlob is required for a Put Blob');
    }
    a.blob = rec.body;
    const ct = rec.headers['x-ms-blob-content-type'] ?? rec.headers['content-type'];
    if (typeof ct === 'string') a.blobContentType = ct;
    created(res, rec, { etag: etag(a.blob), 'last-modified': new Date().toUTCString(), 'content-md5': md5(a.blob) });
  }

  function created(res: ServerResponse, rec: RecordedRequest, extra: Record<string, string>): void {
    rec.status = 201;
    res.writeHead(201, { ...azureHeaders(rec), 'x-ms-request-server-encrypted': 'true', 'content-length': '0', ...extra });
    res.end();
  }

  // --- Dispatch ------------------------------------------------------------------------------------------

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const u = new URL(req.url ?? '/', 'http://localhost');
      const rec: RecordedRequest = { method: req.method ?? '', path: u.pathname, query: u.searchParams, headers: req.headers, body: Buffer.concat(chunks), status: 0 };
      requests.push(rec);
      const isTwirp = u.pathname.startsWith(TWIRP_PREFIX);
      try {
        if (isTwirp) {
          const method = u.pathname.slice(TWIRP_PREFIX.length);
          if (req.method !== 'POST') throw new HttpError(404, 'bad_route', 'Twirp routes take POST');
          if (['CreateArtifact', 'FinalizeArtifact', 'ListArtifacts', 'GetSignedArtifactURL'].includes(method)) rec.op = method as FakeArtifactOp;
          const out = twirp(method, rec);
          rec.status = out.status;
          res.writeHead(out.status, { 'content-type': 'application/json' });
          res.end(JSON.stringify(out.body));
        } else {
          blob(rec, res);
        }
      } catch (e) {
        const err = e instanceof HttpError ? e : new HttpError(500, isTwirp ? 'internal' : 'InternalError', String(e));
        rec.status = err.status;
        if (isTwirp) {
          res.writeHead(err.status, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ code: err.code, msg: err.message }));
        } else {
          const xml = `<?xml version="1.0" encoding="utf-8"?><Error><Code>${err.code}</Code><Message>${err.message}\nRequestId:${randomUUID()}\nTime:${new Date().toISOString()}</Message></Error>`;
          res.writeHead(err.status, { ...azureHeaders(rec), 'content-type': 'application/xml', 'x-ms-error-code': err.code });
          res.end(xml);
        }
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: origin,
    token,
    runBackendId,
    jobBackendId,
    requests,
    artifacts,
    fail(op, status, times = Number.POSITIVE_INFINITY) {
      failures.set(op, { status, left: times });
    },
    calls: (op) => requests.filter((r) => r.op === op),
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

function azureHeaders(rec: RecordedRequest): Record<string, string> {
  const h: Record<string, string> = {
    'x-ms-request-id': randomUUID(),
    'x-ms-version': String(rec.headers['x-ms-version'] ?? '2025-11-05'),
    date: new Date().toUTCString(),
    server: 'Windows-Azure-Blob/1.0 Microsoft-HTTPAPI/2.0',
  };
  const clientId = rec.headers['x-ms-client-request-id'];
  if (typeof clientId === 'string') h['x-ms-client-request-id'] = clientId;
  return h;
}

const md5 = (b: Buffer): string => createHash('md5').update(b).digest('base64');
const etag = (b: Buffer): string => `"0x${createHash('sha1').update(b).digest('hex').slice(0, 15).toUpperCase()}"`;

// ---------------------------------------------------------------------------------------------------------
// Zip

export interface ZipEntry {
  name: string;
  /** 0 stored, 8 deflated. */
  method: number;
  data: Buffer;
}

/**
 * The entries of a zip, read through its central directory (archiver streams entries with data
 * descriptors, so the local headers carry no sizes), inflated and checked against their CRC-32 and size.
 * Throws on anything malformed. ZIP64 is not handled (the tests' archives are small).
 */
export function readZip(zip: Buffer): ZipEntry[] {
  const EOCD = 0x06054b50;
  let eocd = -1;
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 22 - 0xffff); i--) {
    if (zip.readUInt32LE(i) === EOCD) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new Error('not a zip: no end of central directory record');
  const count = zip.readUInt16LE(eocd + 10);
  const cdSize = zip.readUInt32LE(eocd + 12);
  let p = zip.readUInt32LE(eocd + 16);
  if (p + cdSize > eocd) throw new Error('zip central directory overlaps its end record');
  const entries: ZipEntry[] = [];
  for (let n = 0; n < count; n++) {
    if (zip.readUInt32LE(p) !== 0x02014b50) throw new Error(`bad central directory header at ${p}`);
    const method = zip.readUInt16LE(p + 10);
    const crc = zip.readUInt32LE(p + 16);
    const compSize = zip.readUInt32LE(p + 20);
    const size = zip.readUInt32LE(p + 24);
    const nameLen = zip.readUInt16LE(p + 28);
    const extraLen = zip.readUInt16LE(p + 30);
    const commentLen = zip.readUInt16LE(p + 32);
    const local = zip.readUInt32LE(p + 42);
    const name = zip.subarray(p + 46, p + 46 + nameLen).toString('utf8');
    p += 46 + nameLen + extraLen + commentLen;

    if (zip.readUInt32LE(local) !== 0x04034b50) throw new Error(`bad local header for ${name}`);
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const raw = zip.subarray(start, start + compSize);
    const data = method === 0 ? Buffer.from(raw) : method === 8 ? inflateRawSync(raw) : undefined;
    if (!data) throw new Error(`unsupported compression method ${method} for ${name}`);
    if (data.length !== size) throw new Error(`size mismatch for ${name}: ${data.length} != ${size}`);
    if (crc32(data) >>> 0 !== crc) throw new Error(`CRC mismatch for ${name}`);
    entries.push({ name, method, data });
  }
  return entries;
}
