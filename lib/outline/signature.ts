/**
 * An item's signature made readable: whitespace collapsed, the spaces a line break left inside
 * brackets taken out, cut to 100 characters.
 *
 * It runs once per item (1,900 times for an 11,500-line `.d.ts`), so one expression first looks
 * for anything to tidy, and each rewrite's own expression runs only after a plain scan says it
 * would change something: most signatures are one line with nothing to tidy. The result is the same as running
 * every expression every time (`tests/outline/signature_test.ts` compares the two).
 */

const MAX_SIGNATURE = 100;

/**
 * Any of what the rewrites below change: whitespace other than single spaces, a space inside a
 * bracket, a comma before a closing one. Without a match (most one-line signatures), none runs.
 */
const SOMETHING_TO_TIDY = /\s\s|[^\S ]|[([{<] | [)\]}>]|,[)\]}>]/;

/** True for the characters JavaScript's `\s` matches. */
function _isSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13) || c === 0xa0 ||
    (c >= 0x1680 && (c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 ||
      c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff));
}

/** True when `s` has whitespace other than single spaces, which `\s+` → " " would change. */
function _untidySpace(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 32) {
      if (i + 1 < s.length && _isSpace(s.charCodeAt(i + 1))) return true;
    } else if (c <= 13 || c >= 0xa0) {
      if (_isSpace(c)) return true;
    }
  }
  return false;
}

/** True when some space of `s` follows `(`, `[`, `{` or `<`, or precedes `)`, `]`, `}` or `>`. */
function _bracketSpace(s: string): boolean {
  for (let i = s.indexOf(" "); i >= 0; i = s.indexOf(" ", i + 1)) {
    const before = i > 0 ? s.charCodeAt(i - 1) : 0;
    const after = i + 1 < s.length ? s.charCodeAt(i + 1) : 0;
    // ( [ { < before, ) ] } > after
    if (before === 40 || before === 91 || before === 123 || before === 60) return true;
    if (after === 41 || after === 93 || after === 125 || after === 62) return true;
  }
  return false;
}

/** True when a comma of `s` precedes `)`, `]`, `}` or `>`. */
function _commaClose(s: string): boolean {
  for (let i = s.indexOf(","); i >= 0; i = s.indexOf(",", i + 1)) {
    const after = i + 1 < s.length ? s.charCodeAt(i + 1) : 0;
    if (after === 41 || after === 93 || after === 125 || after === 62) return true;
  }
  return false;
}

/** `s` without a last `{`, `:`, `=>` or `=` and the whitespace before it (`/\s*(\{|:|=>|=)$/`). */
function _withoutOpener(s: string): string {
  let cut = s.length - 1;
  const last = s.charCodeAt(cut);
  if (last === 62) { // `>` of `=>`
    if (s.charCodeAt(cut - 1) !== 61) return s;
    cut--;
  } else if (last !== 123 && last !== 58 && last !== 61) return s; // { : =
  while (cut > 0 && _isSpace(s.charCodeAt(cut - 1))) cut--;
  return s.slice(0, cut);
}

/**
 * Collapses whitespace and cuts a signature to a readable length. Spaces left inside brackets by
 * line breaks go (`f(\n  a,\n)` → `f(a)`); `<` and `>` count as brackets only when they touch a
 * name (`Map<\n  K\n>` → `Map<K>`), so `class C < Base` keeps its spaces. With `fromBody` (the
 * text ran up to the body), a last `{`, `:`, `=>` or `=` goes too.
 */
export function tidySignature(text: string, fromBody: boolean): string {
  let s = text;
  if (SOMETHING_TO_TIDY.test(text)) {
    if (_untidySpace(s)) {
      // A body on the next line leaves a line break and indentation at the end, and only there.
      const before = s.trimEnd();
      s = _untidySpace(before) ? s.replace(/\s+/g, " ") : `${before} `;
    }
    if (_bracketSpace(s)) {
      s = s.replace(/([([{]|(?<=\S)<) /g, "$1").replace(/ ([)\]}]|>(?![ =]))/g, "$1");
    }
    if (_commaClose(s)) s = s.replace(/,([)\]}>])/g, "$1");
  }
  s = s.trim();
  if (fromBody) s = _withoutOpener(s);
  return s.length > MAX_SIGNATURE ? `${s.slice(0, MAX_SIGNATURE - 1)}…` : s;
}
