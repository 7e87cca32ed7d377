import { createHash } from 'node:crypto';
import type { Category, Diagnosis, Finding } from '../types.js';
import { SARIF_MAX_MESSAGE_CHARS, SARIF_MAX_RESULTS } from './bounds.js';
import { CAUSE_TEXT, categoryLabel } from './explain.js';
import { redactDiagnosis } from '../safety/redact.js';
import { stripHidden } from '../safety/sanitize.js';
import { cut } from './source-excerpt.js';

export interface SarifOptions {
  toolVersion: string;
  informationUri?: string;
  /**
   * Absolute `file://` URI of the checkout root, when known: written as `originalUriBaseIds.%SRCROOT%`
   * so the relative URIs resolve for any SARIF consumer (GitHub resolves them against the repo root).
   */
  srcRootUri?: string;
}

// GitHub's SARIF docs use the schemastore URI for 2.1.0.
const SCHEMA = 'https://json.schemastore.org/sarif-2.1.0.json';
const SEMVER = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;

const RULE_TEXT: Record<Category, string> = {
  compile: 'The build failed to compile; Redline pins the line the compiler or type checker names.',
  lint: 'A linter failed the build; Redline pins the line it reported.',
  test: 'A test failed; Redline pins the assertion, the test or the code under test the failure points at.',
  dependency: 'Installing or resolving dependencies failed; Redline pins the manifest or import involved.',
  infra: 'The CI infrastructure failed (runner, network, timeout, service); usually not a code problem.',
  unknown: 'The CI job failed; Redline pins the location the log points at most strongly.',
};

/** The rule (reportingDescriptor) for a category: code scanning requires the descriptions and help. */
function rule(c: Category): Record<string, unknown> {
  const label = categoryLabel(c);
  const short = `CI ${label}`;
  return {
    id: `redline/${c}`,
    name: `redline/${c}`,
    shortDescription: { text: short.charAt(0).toUpperCase() + short.slice(1) },
    fullDescription: { text: RULE_TEXT[c] },
    help: {
      text: `${RULE_TEXT[c]} The result message is the error from the CI log; open the job log for the full output.`,
      markdown: `${RULE_TEXT[c]}\n\nThe result message is the error from the CI log; open the job log for the full output.`,
    },
    defaultConfiguration: { level: 'error' },
    properties: { tags: ['ci', `ci-${c}`], 'problem.severity': 'error' },
  };
}

/** A repo-relative path as a URI reference with `/` separators, each segment percent-encoded. */
function toUri(file: string): { uri: string; relative: boolean } {
  const p = file.replace(/\\/g, '/');
  const encode = (s: string): string =>
    s.split('/').map((seg) => encodeURIComponent(seg).replace(/%40/g, '@').replace(/%2B/g, '+')).join('/');
  if (/^[A-Za-z]:\//.test(p)) return { uri: `file:///${p.slice(0, 2)}${encode(p.slice(2))}`, relative: false };
  if (p.startsWith('/')) return { uri: `file://${encode(p)}`, relative: false };
  return { uri: encode(p.replace(/^(?:\.\/)+/, '')), relative: true };
}

/**
 * A stable identity for the result across runs: rule, file and message (not the line, so an edit
 * above the error does not open a new alert). GitHub only reads `primaryLocationLineHash`, whose
 * documented shape is `<hex>:<occurrence>`.
 */
function fingerprint(ruleId: string, f: Finding): string {
  const message = f.message.replace(/\s+/g, ' ').trim();
  return createHash('sha256').update(`${ruleId}\0${f.file}\0${message}`).digest('hex').slice(0, 16);
}

function result(f: Finding, ruleId: string, occurrence: Map<string, number>): Record<string, unknown> {
  const { uri, relative } = toUri(f.file);
  const region: Record<string, number> = { startLine: Math.max(1, Math.trunc(f.line)) };
  if (f.column !== undefined && f.column >= 1) region.startColumn = Math.trunc(f.column);
  if (f.endLine !== undefined && f.endLine >= region.startLine!) region.endLine = Math.trunc(f.endLine);
  const hash = fingerprint(ruleId, f);
  const n = (occurrence.get(hash) ?? 0) + 1;
  occurrence.set(hash, n);
  const message = cut(stripHidden(f.message).replace(/\s+/g, ' ').trim() || 'CI failure', SARIF_MAX_MESSAGE_CHARS);
  return {
    ruleId,
    ruleIndex: 0,
    level: 'error',
    message: { text: message },
    locations: [
      {
        physicalLocation: {
          artifactLocation: relative ? { uri, uriBaseId: '%SRCROOT%' } : { uri },
          region,
        },
      },
    ],
    partialFingerprints: { primaryLocationLineHash: `${hash}:${n}` },
    properties: {
      confidence: Math.round(f.confidence * 100) / 100,
      cause: f.cause,
      why: CAUSE_TEXT[f.cause],
      ...(f.symbol !== undefined ? { symbol: stripHidden(f.symbol) } : {}),
    },
  };
}

/**
 * SARIF 2.1.0 for GitHub code scanning: one run, driver "Redline" with one rule per category
 * (`redline/<category>`), one error-level result per finding with a relative `%SRCROOT%` location and
 * a stable partial fingerprint; a no-location diagnosis has no results. Secrets redacted.
 */
export function renderSarif(d: Diagnosis, opts: SarifOptions): string {
  const r = redactDiagnosis(d).diagnosis;
  const ruleId = `redline/${r.category}`;
  const occurrence = new Map<string, number>();
  const results =
    r.status === 'located' ? r.findings.slice(0, SARIF_MAX_RESULTS).map((f) => result(f, ruleId, occurrence)) : [];
  const driver: Record<string, unknown> = { name: 'Redline', version: opts.toolVersion };
  if (SEMVER.test(opts.toolVersion)) driver.semanticVersion = opts.toolVersion;
  if (opts.informationUri) driver.informationUri = opts.informationUri;
  driver.rules = [rule(r.category)];
  const run: Record<string, unknown> = { tool: { driver } };
  if (opts.srcRootUri) {
    const root = opts.srcRootUri.endsWith('/') ? opts.srcRootUri : `${opts.srcRootUri}/`;
    run.originalUriBaseIds = { '%SRCROOT%': { uri: root, description: { text: 'The repository root.' } } };
  }
  run.results = results;
  return `${JSON.stringify({ $schema: SCHEMA, version: '2.1.0', runs: [run] }, null, 2)}\n`;
}
