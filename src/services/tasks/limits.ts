import { t, type Language } from "../../messages/index.js";

/** The longest texts kept, as the tables' CHECKs allow (longer ones get a clear reply, not a crash). */
export const MAX_LENGTH = { task: 2000, category: 100, list: 200, item: 500 } as const;

/** The reply to a text longer than its column keeps ("up to 2,000 characters"); null when it fits. */
export function tooLongReply(
  text: string | undefined,
  what: keyof typeof MAX_LENGTH,
  language: Language,
): string | null {
  if (!text || text.length <= MAX_LENGTH[what]) return null;
  return t(language, "tooLong", {
    what: t(language, `what.${what}`),
    max: MAX_LENGTH[what].toLocaleString("en-US"),
  });
}
