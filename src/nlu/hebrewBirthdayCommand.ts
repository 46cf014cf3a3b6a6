/**
 * "my Hebrew birthday is 3 Nisan", "יום ההולדת העברי שלי ב-ג' בניסן": the user's Hebrew birthday,
 * saved as a setting (issue 36) so that "on my Hebrew birthday" can be read. Anchored to the whole
 * message: a reminder about someone else's Hebrew birthday is not this.
 */
import { hebrewDayMonthIn } from "./hebrewDateWords.js";

const EN =
  /^\s*(?:(?:please|ok|so)[\s,]+)?(?:my\s+hebrew\s+birthday\s+is|my\s+hebrew\s+birth\s*day\s+is|i\s+was\s+born\s+on)\s+(?:on\s+)?(.+?)[\s.!]*$/iu;
const HE =
  /^\s*(?:יום\s+ה?הולדת\s+ה?עברי\s+שלי|תאריך\s+ה?לידה\s+ה?עברי\s+שלי|נולדתי)\s+(?:הוא\s+|היא\s+|זה\s+)?(.+?)[\s.!]*$/u;

/** The Hebrew day and month the message says the user's Hebrew birthday is, or null. */
export function parseHebrewBirthdayCommand(text: string): { month: number; day: number } | null {
  if (text.length > 120) return null;
  const said = EN.exec(text)?.[1] ?? HE.exec(text)?.[1];
  // "I was born on 3 Nisan" names a Hebrew date only when the date is one.
  return said ? hebrewDayMonthIn(said) : null;
}
