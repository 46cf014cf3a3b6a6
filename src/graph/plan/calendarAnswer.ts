/**
 * The fast path's answers to questions about the calendar (issue 36), in both calendars: "Rosh
 * Hashana: Sat 2 Oct 2027 (1 Tishrei 5788), starts the evening before", "Today: Sat 28 Nov 2026,
 * 17 Kislev 5787". Planned as the general capability's answer, written here in code.
 */
import { gregorianDayText, hebrewDateText } from "../../nlu/hebrewCalendar.js";
import type { CalendarQuestion } from "../../nlu/calendarQuestions.js";
import { t } from "../../messages/index.js";

/** The words that answer a calendar question, in the user's language. */
export function calendarAnswerText(question: CalendarQuestion, language: "he" | "en"): string {
  if (question.kind === "today") {
    return t(language, "twoCalendars.today", {
      date: gregorianDayText(question.date, language),
      hebrew: hebrewDateText(question.hebrew, language),
    });
  }
  const { holiday, date, hebrew } = question;
  const name = holiday.name[language];
  if (!date || !hebrew) return t(language, "twoCalendars.holidayCountry", { name });
  return t(language, holiday.hebrewDay ? "twoCalendars.holidayEve" : "twoCalendars.holiday", {
    name,
    date: gregorianDayText(date, language),
    hebrew: hebrewDateText(hebrew, language),
  });
}
