import { createHash } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import * as OpenAPIBackendModule from 'openapi-backend';
import type { OpenAPIBackend as OpenAPIBackendClass } from 'openapi-backend';

/**
 * GitHub's OpenAPI description, trimmed to the operations the fake implements, and an openapi-backend
 * validator over it. The full dereferenced file is ~70 MB: it is read at most once per process, and the
 * trimmed definition is cached in the OS temp folder (keyed by the package version and the operation list)
 * so later processes skip the big parse.
 */

/** `[METHOD, GitHub's path template]` of every operation the fake answers (see routes.ts). */
export type OperationKey = readonly [method: string, template: string];

type Json = Record<string, unknown>;
// openapi-backend is CJS with `exports.default`; NodeNext sees the namespace, vitest may give either.
const OpenAPIBackend = ((OpenAPIBackendModule as unknown as { OpenAPIBackend?: unknown }).OpenAPIBackend ??
  (OpenAPIBackendModule as unknown as { default: unknown }).default) as typeof OpenAPIBackendClass;
type Backend = OpenAPIBackendClass;

const require = createRequire(import.meta.url);
const specPkgDir = dirname(require.resolve('@octokit/openapi/package.json'));

let backendPromise: Promise<Backend> | undefined;
let backendKey: string | undefined;

/** The trimmed definition's validator, built once per process for a given operation list. */
export function getBackend(operations: readonly OperationKey[]): Promise<Backend> {
  const key = operations.map(([m, p]) => `${m} ${p}`).join('\n');
  if (backendPromise && backendKey === key) return backendPromise;
  backendKey = key;
  backendPromise = (async () => {
    const definition = loadTrimmed(operations, key);
    const api = new OpenAPIBackend({
      definition: definition as never,
      validate: true,
      quick: true, // no definition self-validation, lazy ajv compile per operation: fast start
      coerceTypes: true,
      customizeAjv: (ajv: import('ajv').default) => {
        // GitHub checks ISO 8601 timestamps; the other formats in request schemas are informative.
        ajv.addFormat('date-time', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:?\d\d)$/);
        for (const f of ['uri', 'email', 'uri-template', 'date', 'hostname', 'binary', 'uuid']) ajv.addFormat(f, true);
        return ajv;
      },
    });
    await api.init();
    return api;
  })();
  return backendPromise;
}

/** Bumped when the trimming below changes, so a cached trimmed definition from before is not reused. */
const TRIM_RULES = 'path-oneOf-as-anyOf';

function loadTrimmed(operations: readonly OperationKey[], key: string): Json {
  const version = (JSON.parse(readFileSync(join(specPkgDir, 'package.json'), 'utf8')) as { version: string }).version;
  const hash = createHash('sha256').update(`${version}\n${TRIM_RULES}\n${key}`).digest('hex').slice(0, 16);
  const cacheFile = join(tmpdir(), `redline-fake-github-spec-${hash}.json`);
  if (existsSync(cacheFile)) {
    try {
      return JSON.parse(readFileSync(cacheFile, 'utf8')) as Json;
    } catch {
      // a torn write from a parallel worker: rebuild below
    }
  }
  const full = JSON.parse(
    readFileSync(join(specPkgDir, 'generated', 'api.github.com.deref.json'), 'utf8'),
  ) as { paths: Record<string, Record<string, Json>> };
  const paths: Record<string, Record<string, Json>> = {};
  for (const [method, template] of operations) {
    const op = full.paths[template]?.[method.toLowerCase()];
    if (!op) throw new Error(`fake-github: ${method} ${template} is not in GitHub's OpenAPI description`);
    // Responses are not validated (we write them); dropping them keeps the definition small.
    const { responses: _r, ...rest } = op;
    // A path parameter is text: `workflow_id` is "an id or a file name" (oneOf integer, string), and with
    // coerced types "1" is both, which oneOf refuses. GitHub takes either: anyOf says what it means.
    const parameters = (rest.parameters as Json[] | undefined)?.map((p) => {
      const schema = p.schema as Json | undefined;
      return p.in === 'path' && schema?.oneOf ? { ...p, schema: { ...schema, oneOf: undefined, anyOf: schema.oneOf } } : p;
    });
    (paths[template] ??= {})[method.toLowerCase()] = { ...rest, ...(parameters ? { parameters } : {}), responses: { default: { description: 'any' } } };
  }
  const trimmed = { openapi: '3.0.3', info: { title: 'GitHub (trimmed for fake-github)', version }, paths };
  const tmp = `${cacheFile}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(trimmed));
  renameSync(tmp, cacheFile);
  return trimmed;
}
