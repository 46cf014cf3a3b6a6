/**
 * The command words that open a reminder ("remind me to", "תזכיר לי", "נדנד אותי"), for callers of
 * parseTime that want only what the reminder is about.
 */

/** "ש" / "ש-" / "על" / "את" standing alone after the command ("תזכיר לי על הפגישה"). */
const HE_LINK = String.raw`(?:ש-|(?:ש|על|את)(?!\p{L}))`;

/** Leading request words, English and Hebrew; a Hebrew infinitive is kept ("להתקשר לאמא"). */
const COMMAND = new RegExp(
  [
    String.raw`^(?:(?:please|pls|hey memo|memo)[\s,]+)?`,
    String.raw`(?:`,
    String.raw`(?:remind|nudge|ping)\s+me(?:\s+(?:to|that|about|of))?`,
    String.raw`|(?:set|add|create)\s+(?:a\s+)?reminder(?:\s+(?:to|for|that|about))?`,
    String.raw`|(?:תזכיר|תזכירי|להזכיר)\s+לי(?:\s+${HE_LINK})?`,
    String.raw`|(?:נדנד|תנדנד|נדנדי|תנדנדי|תציק|תציקי|תחפור|תחפרי)\s+(?:אותי|לי)(?:\s+${HE_LINK})?`,
    String.raw`|(?:תגדיר|תקבע|קבע)\s+(?:לי\s+)?תזכורת(?:\s+${HE_LINK})?`,
    String.raw`)`,
    String.raw`(?![\p{L}\p{N}])[\s,:\-]*`,
  ].join(""),
  "iu",
);

/** The text without a leading "remind me (to)", "תזכיר לי", "נדנד אותי"…; unchanged when there is none. */
export function stripCommandWords(text: string): string {
  return text.replace(COMMAND, "").trim();
}
