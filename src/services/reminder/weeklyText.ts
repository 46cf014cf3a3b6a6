import { t, type Language } from "../../messages/index.js";
import { dayOfWeek, type LocalDate } from "../../nlu/zonedTime.js";
import type { DigestLine, WeeklyContent, WeeklySection } from "../../types/proactive.js";
import { HEBREW_DAYS, pad2, zonedParts } from "../../utils/timeContext.js";

const EN_DAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];

/** Lines a section of the weekly review shows; the rest are counted ("…and 3 more"). */
export const SECTION_LINES = 10;

/** "Thu 22/04" / "חמישי 22/04": a day of the review's week. */
export function dayLabel(date: LocalDate, language: Language): string {
  const names = language === "he" ? HEBREW_DAYS : EN_DAYS;
  return `${names[dayOfWeek(date)] ?? ""} ${pad2(date.day)}/${pad2(date.month)}`;
}

const line = (l: DigestLine) => `• ${l.time ? `${l.time} ` : ""}${l.text}`;

/** A section's title and lines, with "and N more" for the lines left out; "" when empty. */
function block(title: string, lines: string[], more: number, language: Language): string {
  if (lines.length === 0) return "";
  return [title, ...lines, ...(more > 0 ? [t(language, "weekly.more", { count: more })] : [])].join("\n");
}

const bullets = (s: WeeklySection) => s.lines.map(line);

/**
 * The weekly review as text, in the user's language: short sections for a phone screen, the
 * overdue tasks numbered (the numbers "done 2" reads); `scheduled`: the footer says how to stop it.
 */
export function renderWeekly(content: WeeklyContent, scheduled: boolean): string {
  const { language: lang } = content;
  const parts = zonedParts(Date.parse(content.reviewAt), content.timeZone);
  const date = { year: parts.year, month: parts.month, day: parts.day };
  const blocks = [
    content.name
      ? t(lang, "weekly.titleNamed", { name: content.name, day: dayLabel(date, lang) })
      : t(lang, "weekly.title", { day: dayLabel(date, lang) }),
    block(
      t(lang, "weekly.done", { count: content.done.lines.length + content.done.more }),
      bullets(content.done),
      content.done.more,
      lang,
    ),
    block(
      t(lang, "weekly.overdue"),
      content.overdue.lines.map((l, i) => `${i + 1}. ${l.text}${l.time ? ` (${l.time})` : ""}`),
      content.overdue.more,
      lang,
    ),
    block(t(lang, "weekly.coming"), bullets(content.coming), content.coming.more, lang),
    ...content.sections.map((s) =>
      block(
        s.title,
        s.lines.slice(0, SECTION_LINES).map(line),
        Math.max(0, s.lines.length - SECTION_LINES),
        lang,
      ),
    ),
    block(t(lang, "weekly.holidays"), bullets(content.holidays), content.holidays.more, lang),
    block(t(lang, "weekly.shared"), bullets(content.shared), content.shared.more, lang),
  ].filter((b) => b !== "");
  if (content.overdue.lines.length > 0) blocks.push(t(lang, "weekly.numbersHint"));
  if (scheduled) blocks.push(t(lang, "weekly.footer"));
  return blocks.join("\n\n");
}

/** Whether a review has anything to say (an empty one is not sent). */
export function weeklyIsEmpty(content: WeeklyContent): boolean {
  return (
    [content.done, content.overdue, content.coming, content.holidays, content.shared].every(
      (s) => s.lines.length === 0,
    ) && content.sections.every((s) => s.lines.length === 0)
  );
}
