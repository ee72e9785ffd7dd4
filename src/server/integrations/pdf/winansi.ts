/**
 * pdfkit's built-in fonts (Helvetica) encode text as WinAnsi (Windows-1252): Latin-1 plus
 * a few typographic signs, enough for Italian. Anything else (emoji, CJK, control
 * characters) would come out as garbage, so stored text is made safe first: accents
 * outside WinAnsi lose their accent (ő → o), other characters become '?', controls a space.
 */
const EXTRA = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');

function isWinAnsi(ch: string): boolean {
  const code = ch.codePointAt(0)!;
  return (code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || EXTRA.has(ch);
}

export function toWinAnsi(value: string): string {
  let out = '';
  for (const ch of value.normalize('NFC')) {
    if (isWinAnsi(ch)) {
      out += ch;
      continue;
    }
    const code = ch.codePointAt(0)!;
    if (code < 0x20 || (code >= 0x7f && code < 0xa0) || ch === '\u2028' || ch === '\u2029') {
      out += ' ';
      continue;
    }
    // Zero-width joiners and variation selectors (parts of emoji): dropped.
    if (code === 0x200d || (code >= 0xfe00 && code <= 0xfe0f)) continue;
    const base = ch.normalize('NFD').replace(/\p{M}/gu, '');
    out += base.length > 0 && [...base].every(isWinAnsi) ? base : '?';
  }
  return out;
}
