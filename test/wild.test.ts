import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { diagnose } from '../src/diagnose.js';
import { cleanText } from '../src/log/clean.js';
// @ts-expect-error: a plain ESM script without types; the bench and this test read the corpus the same way.
import { listWild, quotedLines, lineCount } from '../scripts/bench-wild.mjs';

/**
 * fixtures/wild/: the development corpus of real logs (format in fixtures/README.md). This checks that
 * every entry is well formed and that diagnosing it stays within the JSON contract's bounds; how well
 * Redline does on it is measured by `npm run bench:wild`, not asserted here.
 */
interface Label {
  source: { repo: string; licence: string; commit?: string; path?: string; url?: string; dataset?: string; via?: string; recorded?: string; log?: string };
  ci: string;
  toolchain: string;
  failingStep: { name: string; start: number; end: number } | null;
  category: string;
  quote: [number, number][];
  fix?: { file: string; line: number }[];
  repo?: string;
}
interface Entry { id: string; dir: string; logPath: string | null; label: Label }

const entries: Entry[] = listWild();
const CIS = ['github-actions', 'travis', 'gitlab', 'jenkins', 'circleci', 'buildkite', 'azure', 'buildbot', 'drone', 'teamcity', 'plain'];
const CATEGORIES = ['compile', 'lint', 'test', 'dependency', 'infra'];
// The held-out projects (issue 14): none of their logs may be in the development corpus.
const HELD_OUT = [
  'lacinoire/master-thesis', 'labri-progress/cidiff', 'apache/commons-lang', 'tananaev/traccar', 'traccar/traccar', 'python/mypy',
  'hivesolutions/appier', 'HubSpot/Baragon', 'Nukkit/Nukkit', 'owlcs/owlapi', 'cbeust/testng', 'twilio/twilio-java',
  'getnikola/nikola', 'Cal-CS-61A-Staff/ok', 'spesmilo/electrum', 'marshallward/f90nml', 'DeRusto/SkyLite-UX',
  'Eay5/OPENWRT-HOME', 'HansPeterRadtke/android-github-build', 'JCLEE94/safework', 'MADPANDA3D/J.A.R.V.I.S-PROJECT',
  'RubenPanero/FEDformer-Probabilistic-Time-Series-Forecasting', 'Vishalsnw/W-1', 'boozegar/anthroshim',
  'cuongchung84/shopware-social-marketing', 'drallgood/jpasskit', 'github/dev', 'gjoeckel/otter',
  'illurukarthik8688/CICDFlask', 'lewis-Dimun/greenfashionscore-v2', 'morgaesis/wishapp', 'murphsicles/zip',
  'qubitquilt/simple-scavenger-hunt', 'sublimeanger/lessonloop3', 'thefaftek-git/CA_Scanner', 'tranbrandon773/DevBot',
].map((r) => r.toLowerCase());

describe('fixtures/wild corpus', () => {
  it('has entries', () => {
    expect(entries.length).toBeGreaterThan(0);
  });

  it('commits no log that `fetch` brought: such an entry names its mirror file and is read from it', () => {
    for (const { id, dir, label } of entries.filter((e) => e.label.source.log === 'mirror')) {
      expect(existsSync(join(dir, 'log.txt')), id).toBe(false);
      expect(label.source.dataset, id).toMatch(/^[\w.-]+\/[\w.-]+$/);
      expect(label.source.commit, id).toMatch(/^[0-9a-f]{40}$/);
      expect(label.source.path?.length, id).toBeGreaterThan(0);
    }
    for (const { id, dir, label } of entries.filter((e) => e.label.source.log !== 'mirror')) expect(existsSync(join(dir, 'log.txt')), id).toBe(true);
  });

  for (const { id, logPath, label } of entries) {
    // Read from a mirror (fixtures/README.md, "wild/") that is not on this machine: nothing to check here.
    if (!logPath) {
      it.skip(`${id} (its mirror, ${label.source.dataset}, is not on this machine)`, () => {});
      continue;
    }
    describe(id, () => {
      const text = readFileSync(logPath, 'utf8');
      const total = lineCount(text);

      it('has a well-formed label whose quoted lines exist in its log', () => {
        expect(typeof label.source?.repo).toBe('string');
        expect(label.source.repo).toMatch(/^[\w.-]+\/[\w.-]+$/);
        expect(HELD_OUT).not.toContain(label.source.repo.toLowerCase());
        expect(label.source.licence?.length).toBeGreaterThan(2);
        expect(label.source.path ?? label.source.url ?? label.source.recorded).toBeTruthy();
        expect(CIS).toContain(label.ci);
        expect(label.toolchain).toMatch(/^[a-z0-9][a-z0-9.+-]*$/);
        expect(CATEGORIES).toContain(label.category);
        expect(label.quote.length).toBeGreaterThan(0);
        for (const [a, b] of label.quote) {
          expect(Number.isInteger(a) && Number.isInteger(b)).toBe(true);
          expect(a).toBeGreaterThanOrEqual(1);
          expect(b).toBeGreaterThanOrEqual(a);
          expect(b).toBeLessThanOrEqual(total);
        }
        const quoted = quotedLines(label, text) as Set<number>;
        expect(quoted.size, 'a quote holds at least one non-blank line').toBeGreaterThan(0);
        if (label.failingStep) {
          const { start, end, name } = label.failingStep;
          expect(name.length).toBeGreaterThan(0);
          expect(start).toBeGreaterThanOrEqual(1);
          expect(end).toBeGreaterThanOrEqual(start);
          expect(end).toBeLessThanOrEqual(total);
          expect([...quoted].some((n) => n >= start && n <= end), 'the quote is inside the failing step').toBe(true);
        }
        for (const f of label.fix ?? []) {
          expect(f.file.length).toBeGreaterThan(0);
          expect(f.line).toBeGreaterThanOrEqual(1);
        }
      });

      it('is diagnosed without crashing, within the contract', async () => {
        const d = await diagnose({ log: logPath });
        expect(d.summary.length).toBeGreaterThan(0);
        expect(['located', 'no-location']).toContain(d.status);
        expect(d.findings.length).toBeLessThanOrEqual(5);
        // The contract allows up to 40 evidence lines (version 2); each is a real line of this log.
        expect(d.evidence.length).toBeLessThanOrEqual(40);
        const cleaned = cleanText(text);
        for (const e of d.evidence) {
          expect(e.line).toBeGreaterThanOrEqual(1);
          expect(e.line).toBeLessThanOrEqual(Math.max(total, cleaned.length));
        }
        if (d.failingStep) {
          expect(d.failingStep.startLine).toBeGreaterThanOrEqual(1);
          expect(d.failingStep.endLine).toBeGreaterThanOrEqual(d.failingStep.startLine);
          expect(d.failingStep.endLine).toBeLessThanOrEqual(Math.max(total, cleaned.length));
        }
      });
    });
  }
});
