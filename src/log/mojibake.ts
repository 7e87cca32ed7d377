/**
 * Text a legacy code page garbled. Windows PowerShell 5 reads a native command's output in the console's OEM
 * code page (cp437 on an English install) before its `>` or `Out-File` writes it as UTF-16: `gh run view --log >
 * x.txt` of a UTF-8 log turns Playwright's `›` into `ΓÇ║`, vitest's `✓` into `Γ£ô` and its `⎯` rule into
 * `ΓÄ»`, the BOM into `∩╗┐`. Every such character is one byte of the UTF-8 text, so mapping each back to its
 * cp437 byte and reading the bytes as UTF-8 gives the line the tool printed. A line whose characters are not all
 * ASCII or cp437's upper half, or whose bytes are not valid UTF-8 with a multi-byte character, is left as it is:
 * text in cp437's own letters (`é`, `─`) does not decode, and real UTF-8 (`✓`) is not cp437.
 */
const CP437_HIGH =
  'ÇüéâäàåçêëèïîìÄÅÉæÆôöòûùÿÖÜ¢£¥₧ƒáíóúñÑªº¿⌐¬½¼¡«»░▒▓│┤╡╢╖╕╣║╗╝╜╛┐└┴┬├─┼╞╟╚╔╩╦╠═╬╧╨╤╥╙╘╒╓╫╪┘┌█▄▌▐▀αßΓπΣσµτΦΘΩδ∞φε∩≡±≥≤⌠⌡÷≈°∙·√ⁿ²■\u00a0';
const BYTE_OF = new Map<string, number>([...CP437_HIGH].map((c, i) => [c, 0x80 + i]));
/** A lead byte of a multi-byte UTF-8 character in cp437 (0xC2–0xF4): `Γ` (0xE2) starts most symbols. */
const LEAD = new RegExp(`[${[...CP437_HIGH.slice(0x42, 0x75)].join('')}]`);
const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The line as the tool printed it when it is cp437-garbled UTF-8, else the line unchanged. */
export function repairCp437(line: string): string {
  if (!LEAD.test(line)) return line;
  const bytes = new Uint8Array(line.length);
  let high = false;
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c < 0x80) {
      bytes[i] = c;
      continue;
    }
    const b = BYTE_OF.get(line[i]!);
    if (b === undefined) return line;
    bytes[i] = b;
    high = true;
  }
  if (!high) return line;
  try {
    return UTF8.decode(bytes);
  } catch {
    return line;
  }
}
