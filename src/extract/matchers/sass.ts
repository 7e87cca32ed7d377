import type { LogLine, Signal } from '../../types.js';
import type { Matcher } from './matcher.js';

const MAX_LINE = 2000;
/** Lines between `Error:` and its location: Dart Sass's excerpt box is a handful of lines. */
const MAX_BOX = 12;
const ERROR = /^(?:Error|error)(?: in plugin "[^"]+")?: (.+)$/;
// Dart Sass: `  styles/main.sass 5:1  root stylesheet` (or `  styles/_x.scss 3:5  @use`).
const DART_AT = /^\s+(\S+?\.(?:s[ac]ss|css)) (\d+):(\d+)\s+(.+)$/;
// libsass (sassc, node-sass): `        on line 4:21 of styles/main.sass`.
const LIBSASS_AT = /^\s+on line (\d+)(?::(\d+))? of (\S+?\.(?:s[ac]ss|css))(?:, in .*)?$/;
const BOX = /^\s*(?:\d+\s+)?[╷│╵|]|^\s*,$|^\s*'$|^>>|^\s*-+\^$/;

/** Reads Sass compile errors: Dart Sass's `Error: …` + excerpt + `file L:C` line, and libsass's `on line L:C of file`. */
export const sassMatcher: Matcher = {
  id: 'sass',
  extract(lines: readonly LogLine[]): Signal[] {
    const out: Signal[] = [];
    for (let i = 0; i < lines.length; i++) {
      const { n, text } = lines[i]!;
      if (text.length > MAX_LINE || !/^error/i.test(text)) continue;
      const e = ERROR.exec(text);
      if (!e) continue;
      const related: number[] = [];
      let at: { path: string; line: number; column?: number } | undefined;
      for (let j = i + 1; j < lines.length && j - i <= MAX_BOX; j++) {
        const t = lines[j]!.text;
        const d = DART_AT.exec(t);
        const l = d ? null : LIBSASS_AT.exec(t);
        if (d || l) {
          related.push(lines[j]!.n);
          at = d ? { path: d[1]!, line: Number(d[2]), column: Number(d[3]) } : { path: l![3]!, line: Number(l![1]), ...(l![2] ? { column: Number(l![2]) } : {}) };
          // libsass quotes the source line and its caret after the location.
          for (let k = j + 1; k < lines.length && k <= j + 3 && (BOX.test(lines[k]!.text) || lines[k]!.text === ''); k++) {
            if (lines[k]!.text !== '') related.push(lines[k]!.n);
          }
          break;
        }
        if (!BOX.test(t)) break;
        related.push(lines[j]!.n);
      }
      if (!at) continue;
      out.push({ kind: 'diagnostic', ...at, message: e[1]!, tool: 'sass', severity: 'error', category: 'compile', weight: 1, logLine: n, related });
    }
    return out;
  },
};
