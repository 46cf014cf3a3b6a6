import { hebrewDayMonthText, otherYearsDay } from "../../nlu/hebrewCalendar.js";
import type { TaskRecurrence } from "../../types/tasks.js";
import { t } from "../../messages/index.js";
import { joinAnd, ordinal, rruleText } from "./rruleText.js";

type Language = "he" | "en";

const DAYS: Record<Language, string[]> = {
  en: ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"],
  he: ["ראשון", "שני", "שלישי", "רביעי", "חמישי", "שישי", "שבת"],
};

/** "10 minutes", "an hour", "2 hours" / "10 דקות", "שעה", "שעתיים". */
export function intervalText(minutes: number, language: Language): string {
  if (language === "he") {
    if (minutes === 1) return "דקה";
    if (minutes === 15) return "רבע שעה";
    if (minutes === 30) return "חצי שעה";
    if (minutes === 60) return "שעה";
    if (minutes === 120) return "שעתיים";
    if (minutes % 60 === 0) return `${minutes / 60} שעות`;
    return `${minutes} דקות`;
  }
  if (minutes === 1) return "minute";
  if (minutes === 60) return "hour";
  if (minutes % 60 === 0) return `${minutes / 60} hours`;
  return `${minutes} minutes`;
}

/** "every day at 08:00", "every Sunday and Wednesday at 18:00", "כל 10 לחודש ב-09:00", "every weekday (Sun–Thu) at 07:00"… */
export function ruleText(rule: TaskRecurrence & { untilHuman?: string }, language: Language): string {
  let text: string;
  switch (rule.type) {
    case "daily":
      text = t(language, "rule.daily", { time: rule.time ?? "" });
      break;
    case "weekly":
      text = t(language, "rule.weekly", {
        days: joinAnd(
          (rule.days ?? []).map((d) => DAYS[language][d] ?? String(d)),
          language,
        ),
        time: rule.time ?? "",
      });
      break;
    case "monthly":
      text = t(language, "rule.monthly", {
        day: language === "he" ? String(rule.dayOfMonth) : ordinal(rule.dayOfMonth ?? 1),
        time: rule.time ?? "",
      });
      break;
    case "nudge":
      text = t(language, "rule.nudge", { interval: intervalText(rule.intervalMinutes ?? 10, language) });
      break;
    case "rrule":
      text = rruleText(rule, language);
      break;
    case "hebrew":
      text = hebrewRuleText(rule, language);
      break;
  }
  return rule.untilHuman ? `${text} ${t(language, "rule.until", { date: rule.untilHuman })}` : text;
}

/**
 * "every year on 3 Adar (Hebrew calendar) at 09:00; in leap years, on 3 Adar II": the rule, and the
 * day it is kept on in the years that lack the date as said (by its custom, see hebrewCalendar.ts).
 */
function hebrewRuleText(rule: TaskRecurrence, language: Language): string {
  const { hebrew } = rule;
  if (!hebrew) return t(language, "rule.hebrew", { date: "", time: rule.time ?? "" });
  const text = t(language, rule.eve ? "rule.hebrew.eve" : "rule.hebrew", {
    date: hebrewDayMonthText(hebrew, language),
    time: rule.time ?? "",
  });
  const other = otherYearsDay(hebrew);
  if (!other) return text;
  const date = hebrewDayMonthText(other, language, other.when === "leap");
  const note =
    other.when === "short"
      ? t(language, "rule.hebrew.short", { said: hebrewDayMonthText(hebrew, language), date })
      : t(language, other.when === "leap" ? "rule.hebrew.leap" : "rule.hebrew.common", { date });
  return `${text}; ${note}`;
}
