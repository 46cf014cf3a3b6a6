/** The languages Memo answers in; "other" is answered in English. */
export type DetectedLanguage = "he" | "en" | "other";

const HEBREW = /[\u0590-\u05FF]/g;
const LATIN = /[A-Za-z]/g;
const OTHER_LETTERS = /[\p{L}]/gu;

/**
 * The language of a message by its letters: Hebrew when Hebrew letters are at least as many as
 * Latin ones, English when Latin letters dominate, "other" for other scripts; null when the
 * message has no letters at all ("2", "👍"), so the caller keeps what it knew.
 */
export function detectLanguage(text: string): DetectedLanguage | null {
  const hebrew = text.match(HEBREW)?.length ?? 0;
  const latin = text.match(LATIN)?.length ?? 0;
  const letters = text.match(OTHER_LETTERS)?.length ?? 0;
  if (letters === 0) return null;
  if (hebrew > 0 && hebrew >= latin) return "he";
  if (latin > 0 && latin >= letters - latin - hebrew) return "en";
  return "other";
}

/** The language Memo replies in: Hebrew for Hebrew, English otherwise. */
export function replyLanguage(language: DetectedLanguage | null | undefined): "he" | "en" {
  return language === "he" ? "he" : "en";
}
