import { parseRule, type RuleParts } from "../../nlu/recurrenceRule.js";
import type { TaskRecurrence } from "../../types/tasks.js";
import { t } from "../../messages/index.js";

/**
 * An RFC 5545 reminder rule in the user's words (D10), in English and Hebrew: "every weekday
 * (Sun–Thu) at 07:00", "every other Tuesday at 08:00", "on the first Sunday of every month at
 * 09:00", "כל שנה ב-3 במרץ ב-09:00". A weekday or weekend rule names the week it follows.
 */

type Language = "he" | "en";

const DAYS: Record<Language, string[]> = {
  en: ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"],
  he: ["ראשון", "שני", "שלישי", "רביעי", "חמישי", "שישי", "שבת"],
};
const SHORT_DAYS: Record<Language, string[]> = {
  en: ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"],
  he: ["א׳", "ב׳", "ג׳", "ד׳", "ה׳", "ו׳", "ש׳"],
};
const MONTHS: Record<Language, string[]> = {
  en: [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
  ],
  he: [
    "ינואר",
    "פברואר",
    "מרץ",
    "אפריל",
    "מאי",
    "יוני",
    "יולי",
    "אוגוסט",
    "ספטמבר",
    "אוקטובר",
    "נובמבר",
    "דצמבר",
  ],
};
const NTH: Record<Language, Record<string, string>> = {
  en: { "1": "first", "2": "second", "3": "third", "4": "fourth", "-1": "last", "-2": "second to last" },
  he: { "1": "הראשון", "2": "השני", "3": "השלישי", "4": "הרביעי", "-1": "האחרון", "-2": "הלפני אחרון" },
};

/** "every day", "every other day", "every 3 days" / "כל יום", "כל יומיים", "כל 3 ימים", per unit. */
const EVERY: Record<Language, Record<"day" | "week" | "month" | "year", [string, string, string]>> = {
  en: {
    day: ["every day", "every other day", "every {n} days"],
    week: ["every week", "every other week", "every {n} weeks"],
    month: ["every month", "every other month", "every {n} months"],
    year: ["every year", "every other year", "every {n} years"],
  },
  he: {
    day: ["כל יום", "כל יומיים", "כל {n} ימים"],
    week: ["כל שבוע", "כל שבועיים", "כל {n} שבועות"],
    month: ["כל חודש", "כל חודשיים", "כל {n} חודשים"],
    year: ["כל שנה", "כל שנתיים", "כל {n} שנים"],
  },
};

function every(unit: "day" | "week" | "month" | "year", n: number, language: Language): string {
  const [one, two, many] = EVERY[language][unit];
  return n === 1 ? one : n === 2 ? two : many.replace("{n}", String(n));
}

/** "A, B and C" / "A, B וC". */
export function joinAnd(names: string[], language: Language): string {
  if (names.length <= 1) return names.join("");
  const and = t(language, "rule.and");
  return `${names.slice(0, -1).join(", ")}${language === "he" ? ` ${and}` : ` ${and} `}${names.at(-1)}`;
}

/** "Sunday, Monday and Friday" / "ראשון, שני ושישי". */
function dayList(days: number[], language: Language): string {
  return joinAnd(
    days.map((d) => DAYS[language][d] ?? String(d)),
    language,
  );
}

const same = (a: number[], b: number[]) => a.length === b.length && a.every((v, i) => v === b[i]);

/** The working days or weekend of a week (Sun–Thu, Mon–Fri, Fri–Sat, Sat–Sun), with their range as said. */
function weekPartOf(
  days: number[],
  language: Language,
): { part: "workdays" | "weekend"; range: string } | null {
  const short = SHORT_DAYS[language];
  const range = (first: number, last: number) => `${short[first]}–${short[last]}`;
  if (same(days, [0, 1, 2, 3, 4])) return { part: "workdays", range: range(0, 4) };
  if (same(days, [1, 2, 3, 4, 5])) return { part: "workdays", range: range(1, 5) };
  if (same(days, [5, 6])) return { part: "weekend", range: range(5, 6) };
  if (same(days, [0, 6])) return { part: "weekend", range: range(6, 0) };
  return null;
}

/** "1st", "2nd", "11th", "23rd": English ordinals (Hebrew says the plain number). */
export function ordinal(n: number): string {
  const suffix = n % 100 >= 11 && n % 100 <= 13 ? "th" : (["th", "st", "nd", "rd"][n % 10] ?? "th");
  return `${n}${suffix}`;
}

/** A day of the month said once: the day itself, or for the "28…N, last of them" form, N. */
function monthDayOf(parts: RuleParts): number | null {
  const days = parts.byMonthDay ?? [];
  const [only] = days;
  if (days.length === 1 && only !== undefined && !parts.bySetPos) return only;
  const last = days.at(-1);
  const clamp =
    last !== undefined &&
    same(
      days,
      Array.from({ length: last - 27 }, (_, i) => 28 + i),
    );
  return clamp && parts.bySetPos?.length === 1 && parts.bySetPos[0] === -1 ? last : null;
}

/** The rule in words, or the RFC 5545 text itself inside a general sentence when it is none of the forms Memo writes. */
export function rruleText(rule: TaskRecurrence, language: Language): string {
  const time = rule.time ?? "";
  const parts = rule.rule === undefined ? null : parseRule(rule.rule);
  const other = () => t(language, "rule.other", { rule: rule.rule ?? "", time });
  if (!parts) return other();
  const n = parts.interval;
  switch (parts.freq) {
    case "DAILY":
      return t(language, "rule.every", { every: every("day", n, language), time });
    case "WEEKLY": {
      const days = (parts.byDay ?? []).map((d) => d.day);
      const week = weekPartOf(days, language);
      if (n === 1 && week)
        return t(language, week.part === "workdays" ? "rule.workdays" : "rule.weekend", {
          range: week.range,
          time,
        });
      if (week) {
        const key = week.part === "workdays" ? "rule.weeksWorkdays" : "rule.weeksWeekend";
        return t(language, key, { every: every("week", n, language), range: week.range, time });
      }
      if (days.length === 0) return other();
      if (n === 1) return t(language, "rule.weekly", { days: dayList(days, language), time });
      return t(language, "rule.weeksOn", {
        every: every("week", n, language),
        days: dayList(days, language),
        time,
      });
    }
    case "MONTHLY": {
      const everyMonth = every("month", n, language);
      const byDay = parts.byDay ?? [];
      const [first] = byDay;
      if (first && byDay.every((d) => d.nth !== undefined && d.day === first.day)) {
        const nthWords = byDay.map((d) => NTH[language][String(d.nth)]);
        if (nthWords.some((w) => w === undefined)) return other();
        return t(language, "rule.nthWeekday", {
          nth: joinAnd(nthWords as string[], language),
          day: DAYS[language][first.day] ?? "",
          every: everyMonth,
          time,
        });
      }
      const day = monthDayOf(parts);
      if (day === -1) return t(language, "rule.lastDay", { every: everyMonth, time });
      if (day === null || day < 1) return other();
      return t(language, "rule.monthsOnDay", {
        every: everyMonth,
        day: language === "he" ? String(day) : ordinal(day),
        time,
      });
    }
    case "YEARLY": {
      const [month] = parts.byMonth ?? [];
      const [day] = parts.byMonthDay ?? [];
      if (
        parts.byMonth?.length !== 1 ||
        parts.byMonthDay?.length !== 1 ||
        month === undefined ||
        day === undefined ||
        day < 1
      ) {
        return other();
      }
      const monthName = MONTHS[language][month - 1] ?? "";
      const date = language === "he" ? `${day} ב${monthName}` : `${monthName} ${day}`;
      return t(language, "rule.yearly", { every: every("year", n, language), date, time });
    }
  }
}

/** Stands for the time in a sentence whose time is then left out. */
const NO_TIME = "{no-time}";

/**
 * An RFC 5545 rule in words at `time` (any words: a calendar series says "07:00–08:00"), or with no
 * time at all when `time` is null (an all-day calendar series: "every year on March 3",
 * "כל שנה ב-3 במרץ"). The same wording as reminders (rruleText).
 */
export function rruleWords(rule: string, time: string | null, language: Language): string {
  if (time !== null) return rruleText({ type: "rrule", rule, time }, language);
  const text = rruleText({ type: "rrule", rule, time: NO_TIME }, language);
  // Every sentence ends "at {time}" / "ב-{time}".
  for (const ending of [` at ${NO_TIME}`, ` ב-${NO_TIME}`, NO_TIME]) {
    if (text.endsWith(ending)) return text.slice(0, -ending.length).trim();
  }
  return text.replaceAll(NO_TIME, "").trim();
}
