/**
 * Format characters nobody sees: zero-width spaces and joiners, word joiners and invisible
 * operators, the byte-order mark, bidi embeddings, overrides and isolates, the soft hyphen. A
 * message pasted from a web page or typed on some keyboards carries them inside words
 * ("Christ\u200dmas"), where they would hide a word from every reader of Memo's grammar.
 */
const INVISIBLE_CHARACTER = /[\u00ad\u200b-\u200f\u2060-\u2064\ufeff\u202a-\u202e\u2066-\u2069]/u;
const INVISIBLE_CHARACTERS = new RegExp(INVISIBLE_CHARACTER.source, "gu");
const ZWJ = "\u200d";
/** What may stand before a joiner inside an emoji sequence (👩🏽‍💻, ❤️‍🔥). */
const EMOJI_BEFORE = /[\p{Extended_Pictographic}\p{Emoji_Modifier}\ufe0f]$/u;
const EMOJI_AFTER = /^\p{Extended_Pictographic}/u;

/** Whether the character at `offset` of `text` is invisible and dropped: a joiner only outside emoji. */
export function isDroppedAt(text: string, offset: number): boolean {
  const char = text[offset]!;
  if (!INVISIBLE_CHARACTER.test(char)) return false;
  return !(
    char === ZWJ &&
    EMOJI_BEFORE.test(text.slice(0, offset)) &&
    EMOJI_AFTER.test(text.slice(offset + 1))
  );
}

/**
 * The text without its invisible format characters, keeping a zero-width joiner between emoji
 * (so 👨‍👩‍👧 stays one family, not three people).
 */
export function withoutInvisibleCharacters(text: string): string {
  return text.replace(INVISIBLE_CHARACTERS, (char: string, offset: number) =>
    isDroppedAt(text, offset) ? "" : char,
  );
}
