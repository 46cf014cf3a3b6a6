import { t, type Language } from "../../messages/index.js";
import { dateLabel } from "../../nlu/zonedTime.js";
import type { DigestLine, WeeklyContent, WeeklySection } from "../../types/proactive.js";
import { fitsTemplateParameter } from "../../utils/templateParameter.js";
import { zonedParts } from "../../utils/timeContext.js";

/** Lines a section of the weekly review shows; the rest are counted ("…and 3 more"). */
export const SECTION_LINES = 10;

const line = (l: DigestLine) => `• ${l.time ? `${l.time} ` : ""}${l.text}`;

/** A section's title and lines, with "and N more" for the lines left out; "" when empty (unless `counted`). */
function block(title: string, lines: string[], more: number, language: Language, counted = false): string {
  if (lines.length === 0 && !(counted && more > 0)) return "";
  return [title, ...lines, ...(more > 0 ? [t(language, "weekly.more", { count: more })] : [])].join("\n");
}

const bullets = (s: WeeklySection) => s.lines.map(line);

/**
 * The weekly review as text, in the user's language: short sections for a phone screen, the
 * overdue tasks numbered (the numbers "done 2" reads); `scheduled`: the footer says how to stop it.
 */
export function renderWeekly(content: WeeklyContent, scheduled: boolean): string {
  const { language: lang } = content;
  const blocks = [
    title(content),
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

/** The review's first line: "🗓️ Noa, your weekly review for Sun 18/04:". */
function title(content: WeeklyContent): string {
  const { language: lang } = content;
  const parts = zonedParts(Date.parse(content.reviewAt), content.timeZone);
  const day = dateLabel({ year: parts.year, month: parts.month, day: parts.day }, lang, true);
  return content.name
    ? t(lang, "weekly.titleNamed", { name: content.name, day })
    : t(lang, "weekly.title", { day });
}

/** Characters of one line's words in the template (a longer task is cut with "…"). */
const TEMPLATE_LINE_CHARS = 120;

const clipped = (l: DigestLine): DigestLine => ({
  ...l,
  text:
    l.text.length > TEMPLATE_LINE_CHARS ? `${l.text.slice(0, TEMPLATE_LINE_CHARS - 1).trimEnd()}…` : l.text,
});

/** A section of the template: its title, its lines, how many it has in all. */
interface TemplateSection {
  title: string;
  lines: DigestLine[];
  total: number;
}

/**
 * The scheduled review as a template's one parameter (outside the 24-hour window), fitted to the
 * parameter limit whole: the title, the overdue tasks first (numbered, with the "done 1" hint),
 * then the other sections shortened in turn (a line each while they fit, the rest counted as
 * "…and N more"; a section with no room left out), and always the footer that says how to stop it.
 * `taskIds`: the overdue tasks whose numbered lines it holds, in order (what "done 2" may name).
 */
export function renderWeeklyTemplate(content: WeeklyContent): { text: string; taskIds: string[] } {
  const { language: lang } = content;
  const overdue = content.overdue.lines.map(clipped);
  const overdueTotal = overdue.length + content.overdue.more;
  const others: TemplateSection[] = [
    {
      title: t(lang, "weekly.done", { count: content.done.lines.length + content.done.more }),
      lines: content.done.lines,
      total: content.done.lines.length + content.done.more,
    },
    {
      title: t(lang, "weekly.coming"),
      lines: content.coming.lines,
      total: content.coming.lines.length + content.coming.more,
    },
    ...content.sections.map((s) => ({
      title: s.title,
      lines: s.lines.slice(0, SECTION_LINES),
      total: s.lines.length,
    })),
    {
      title: t(lang, "weekly.holidays"),
      lines: content.holidays.lines,
      total: content.holidays.lines.length + content.holidays.more,
    },
    {
      title: t(lang, "weekly.shared"),
      lines: content.shared.lines,
      total: content.shared.lines.length + content.shared.more,
    },
  ]
    .filter((s) => s.total > 0)
    .map((s) => ({ ...s, lines: s.lines.map(clipped) }));
  /** A section with `shown` of its lines and the rest counted; "" when left out (shown < 0). */
  const sectionBlock = (s: TemplateSection, shown: number, render: (l: DigestLine, i: number) => string) =>
    shown < 0 ? "" : block(s.title, s.lines.slice(0, shown).map(render), s.total - shown, lang, true);
  const compose = (overdueShown: number, shown: readonly number[]) =>
    [
      title(content),
      overdueTotal > 0
        ? sectionBlock(
            { title: t(lang, "weekly.overdue"), lines: overdue, total: overdueTotal },
            overdueShown,
            (l, i) => `${i + 1}. ${l.text}${l.time ? ` (${l.time})` : ""}`,
          )
        : "",
      overdueShown > 0 ? t(lang, "weekly.numbersHint") : "",
      ...others.map((s, i) => sectionBlock(s, shown[i]!, line)),
      t(lang, "weekly.footer"),
    ]
      .filter((b) => b !== "")
      .join("\n\n");
  // Overdue first: as many of its lines as fit with the title and footer alone.
  let overdueShown = overdue.length;
  const none = others.map(() => -1);
  while (overdueShown > 0 && !fitsTemplateParameter(compose(overdueShown, none))) overdueShown--;
  // Then the others, a line at a time in turn (a title with its count first), while they fit.
  const shown = [...none];
  for (let grew = true; grew;) {
    grew = false;
    for (const [i, s] of others.entries()) {
      if (shown[i]! >= s.lines.length) continue;
      const next = shown.with(i, shown[i]! + 1);
      if (!fitsTemplateParameter(compose(overdueShown, next))) continue;
      shown[i] = next[i]!;
      grew = true;
    }
  }
  return {
    text: compose(overdueShown, shown),
    taskIds: content.overdue.taskIds.slice(0, overdueShown),
  };
}

/** Whether a review has anything to say (an empty one is not sent). */
export function weeklyIsEmpty(content: WeeklyContent): boolean {
  return (
    [content.done, content.overdue, content.coming, content.holidays, content.shared].every(
      (s) => s.lines.length === 0,
    ) && content.sections.every((s) => s.lines.length === 0)
  );
}
