/**
 * Characters that show nothing: zero-width ones (U+200B–U+200D, U+2060, U+FEFF, the soft hyphen
 * U+00AD, the combining grapheme joiner U+034F) and bidi controls (U+200E, U+200F, U+061C,
 * U+202A–U+202E, U+2066–U+2069). Phones add them around pasted or right-to-left text.
 */
// U+034F is a combining mark: kept out of the class, where it would read as joined to its neighbour.
const INVISIBLE = String.raw`[\u00AD\u061C\u200B-\u200F\u202A-\u202E\u2060\u2066-\u2069\uFEFF]|\u034F`;
const INVISIBLE_EDGES = new RegExp(String.raw`^(?:\s|${INVISIBLE})+|(?:\s|${INVISIBLE})+$`, "gu");
const HAS_INVISIBLE = new RegExp(INVISIBLE, "u");

/**
 * The text without whitespace and invisible characters at either end; "" when nothing visible is
 * left. Inside the text they stay: a right-to-left mark between Hebrew and digits, or a joiner in
 * an emoji, decides how the name is displayed.
 */
export const visibleText = (text: string): string => text.replace(INVISIBLE_EDGES, "");

/** A string argument with visible content, without whitespace or invisible characters at its ends; undefined for anything else (null, "", "  ", "\u200B", numbers). */
export const nonEmpty = (value: unknown): string | undefined =>
  typeof value === "string" ? visibleText(value) || undefined : undefined;

/** A string made only of invisible characters (and whitespace), at least one of them: a name someone typed that shows nothing. */
export const onlyInvisible = (value: unknown): boolean =>
  typeof value === "string" && visibleText(value) === "" && HAS_INVISIBLE.test(value);
