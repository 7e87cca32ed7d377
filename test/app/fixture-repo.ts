/**
 * The App's test repository: the `tsc-signature-change-call-site` golden case as a GitHub repository
 * (files at the failing commit, the PR's files as the API lists them). Shared by the App's e2e tests
 * and `npm run bench:load` (which bundles it with esbuild).
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { makeTarball, type FakePullFile } from '../helpers/fake-github/index.js';

export const FIXTURE = join(import.meta.dirname, '../../fixtures/logs/tsc-signature-change-call-site');

/** The PR also touched receipt.ts line 15 (it reformatted the line and missed the new argument): a hunk that puts the pin inside the diff. */
export const RECEIPT_EDIT = {
  filename: 'src/receipt.ts',
  status: 'modified' as const,
  patch: [
    '@@ -12,7 +12,7 @@ export function renderReceipt(payment: Payment): string {',
    '   const balance = due - payment.paidCents;',
    '   const lines = [',
    '     `Receipt for invoice ${payment.invoice.number}`,',
    '-    `Paid on ${payment.paidAt.toISOString().slice(0, 10)}:  ${formatMoney(payment.paidCents)}`,',
    '+    `Paid on ${payment.paidAt.toISOString().slice(0, 10)}: ${formatMoney(payment.paidCents)}`,',
    '   ];',
    '   if (balance !== 0) lines.push(`Balance: ${formatMoney(balance)}`);',
    "   return lines.join('\\n');",
  ].join('\n'),
};
export const REPO = 'octo-org/invoicer';
export const HEAD_SHA = 'c0ffee'.padEnd(40, '1');

/** The fixture's `base/` with `head.patch` applied: the repository at the failing commit. */
export function headFiles(fixture = FIXTURE): Record<string, string> {
  const dir = mkdtempSync(join(tmpdir(), 'redline-head-'));
  try {
    cpSync(join(fixture, 'base'), dir, { recursive: true });
    execFileSync('git', ['apply', join(fixture, 'head.patch')], { cwd: dir });
    const files: Record<string, string> = {};
    const walk = (d: string): void => {
      for (const name of readdirSync(d)) {
        const p = join(d, name);
        if (statSync(p).isDirectory()) walk(p);
        else files[relative(dir, p)] = readFileSync(p, 'utf8');
      }
    };
    walk(dir);
    return files;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `head.patch` as the PR files API gives it: one entry per file, `patch` from the first hunk on. */
export function patchFiles(fixture = FIXTURE): FakePullFile[] {
  const text = readFileSync(join(fixture, 'head.patch'), 'utf8');
  return text
    .split(/^diff --git /m)
    .filter(Boolean)
    .map((section) => {
      const filename = /^\+\+\+ b\/(.+)$/m.exec(section)![1]!;
      const patch = section.slice(section.indexOf('\n@@') + 1).replace(/\n$/, '');
      return { filename, status: 'modified' as const, patch };
    });
}


/** The repository at `sha` as GitHub's tarball API serves it (`<owner>-<repo>-<short sha>/` prefix). */
export function fixtureTarball(sha = HEAD_SHA, files: Record<string, string> = headFiles()): Buffer {
  return makeTarball(files, `octo-org-invoicer-${sha.slice(0, 7)}`, { sha });
}
