/**
 * The fast path's answers to questions about the calendar (issue 36), in both calendars: "Rosh
 * Hashana: Sat 2 Oct 2027 (1 Tishrei 5788), starts the evening before", "Today: Sat 28 Nov 2026,
 * 17 Kislev 5787". Planned as the general capability's answer, written here in code.
 */
import { gregorianDayText, hebrewDateOf, hebrewDateText } from "../../nlu/hebrewCalendar.js";
import { addDays } from "../../nlu/zonedTime.js";
import type { CalendarQuestion } from "../../nlu/calendarQuestions.js";
import { t } from "../../messages/index.js";

/** The words that answer a calendar question, in the user's language. */
export function calendarAnswerText(question: CalendarQuestion, language: "he" | "en"): string {
  if (question.kind === "today") {
    // After sunset the Hebrew date is already the evening's: said first, today's until sunset after it.
    return t(language, question.afterSunset ? "twoCalendars.todayAfterSunset" : "twoCalendars.today", {
      date: gregorianDayText(question.date, language),
      hebrew: hebrewDateText(question.hebrew, language),
      evening: hebrewDateText(question.evening, language),
    });
  }
  const { holiday, date, hebrew, eve, ongoing } = question;
  const name = holiday.name[language];
  if (!date || !hebrew) return t(language, "twoCalendars.holidayCountry", { name });
  const day = gregorianDayText(date, language);
  if (ongoing) {
    const today = addDays(ongoing.start, ongoing.day - 1);
    return t(language, "twoCalendars.holidayNow", {
      name,
      date: gregorianDayText(today, language),
      hebrew: hebrewDateText(ongoing.hebrew, language),
      day: String(ongoing.day),
      next: day,
      nextHebrew: hebrewDateText(hebrew, language),
    });
  }
  if (eve === "night") {
    // The evening before the first day: the Hebrew date that begins then is the holiday's.
    return t(language, "twoCalendars.holidayNight", {
      name,
      date: day,
      hebrew: hebrewDateText(hebrewDateOf(addDays(date, 1)), language),
    });
  }
  if (eve === "erev") {
    return t(language, "twoCalendars.holidayErev", {
      name,
      date: day,
      hebrew: hebrewDateText(hebrew, language),
    });
  }
  return t(language, holiday.hebrewDay ? "twoCalendars.holidayEve" : "twoCalendars.holiday", {
    name,
    date: day,
    hebrew: hebrewDateText(hebrew, language),
  });
}
