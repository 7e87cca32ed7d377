import { z } from 'zod';
import type { Workspace } from '../../repo/workspace.js';
import { OutsideWorkspaceError, resolveInside, toRepoPath } from '../../safety/confine.js';
import { errorResult, loadDescription, type ToolResult } from '../tools/tool.js';

export const reportParameters = z.object({
  file: z.string().min(1).max(1000).describe('Path relative to the repository root.'),
  line: z.coerce.number().int().min(1).describe('1-based line of the faulty code.'),
  endLine: z.coerce.number().int().min(1).optional().describe('Last line, when the fault spans lines.'),
  code: z.string().min(2, 'code must quote at least 2 characters of the line').max(2000).describe('The faulty code or identifier, copied exactly from the line.'),
  explanation: z.string().min(10, 'explain in a sentence what is wrong').max(2000).describe('What is wrong there and why the build fails.'),
  suggestedReplacement: z.string().max(2000).optional().describe('The corrected text of the whole line.'),
});

export type ReportInput = z.infer<typeof reportParameters>;

export const reportDescription = loadDescription(new URL('./report.txt', import.meta.url));

/** A report that passed every check: the pin, in repo terms, and what was checked. */
export interface VerifiedReport extends ReportInput {
  checks: string[];
}

const squash = (s: string) => s.replace(/\s+/g, ' ').trim();

/**
 * Verifies a report against the checkout (DESIGN.md §7.8: confidence from checks, not from the model):
 * the path is inside the workspace and a listed file, the lines exist, the cited code is on them.
 * Returns the verified report, or a tool result telling the model what was wrong and how to fix it.
 */
export function verifyReport(input: ReportInput, ws: Workspace): VerifiedReport | ToolResult {
  const title = `report ${input.file}:${input.line}`;
  let file: string;
  try {
    file = toRepoPath(ws.root, resolveInside(ws.root, input.file.replace(/^\.\//, '')));
  } catch (e) {
    if (e instanceof OutsideWorkspaceError) return errorResult(title, `Rejected: ${e.message}`);
    return errorResult(title, `Rejected: the path "${input.file}" cannot be used: ${(e as Error).message}`);
  }
  if (!ws.fileSet.has(file)) {
    return errorResult(title, `Rejected: "${input.file}" is not a file of the repository. Use glob (e.g. pattern "**/${file.split('/').pop()}") to find the real path, read it, then report again.`);
  }
  const lines = ws.lines(file);
  if (!lines) return errorResult(title, `Rejected: ${file} is binary or too big to check. Report a line of a source file instead.`);
  const total = lines.length - (lines.at(-1) === '' ? 1 : 0);
  const end = input.endLine ?? input.line;
  if (input.line > total) return errorResult(title, `Rejected: ${file} has ${total} lines; line ${input.line} does not exist. Read the file to find the right line number.`);
  if (end < input.line || end > total || end - input.line > 50)
    return errorResult(title, `Rejected: endLine ${end} must be between line (${input.line}) and ${Math.min(total, input.line + 50)}.`);
  const cited = squash(input.code);
  const span = squash(lines.slice(input.line - 1, end).join(' '));
  if (!span.includes(cited)) {
    const at = lines.findIndex((l) => squash(l).includes(cited));
    const here = lines[input.line - 1] ?? '';
    return errorResult(
      title,
      `Rejected: the cited code ${JSON.stringify(input.code.slice(0, 200))} is not on line ${input.line}${end > input.line ? `-${end}` : ''} of ${file}. ` +
        `Line ${input.line} reads: ${JSON.stringify(here.trim().slice(0, 300))}.` +
        (at >= 0 ? ` The cited code is on line ${at + 1}: report that line if it is the fault.` : ' The cited code is nowhere in this file: read the file and quote the line exactly.'),
    );
  }
  return { ...input, file, endLine: end > input.line ? end : undefined, checks: ['file exists in the checkout', `line ${input.line} of ${total}`, 'the cited code is on the line'] } as VerifiedReport;
}

export function isVerified(r: VerifiedReport | ToolResult): r is VerifiedReport {
  return (r as VerifiedReport).checks !== undefined;
}
