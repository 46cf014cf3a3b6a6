/** A recurring reminder's rule, as stored with its task (src/nlu/recurrence.ts computes its occurrences). */
export type RecurrenceType = "daily" | "weekly" | "monthly" | "nudge" | "rrule" | "hebrew";

/**
 * How a yearly Hebrew date that a year lacks (30 Cheshvan or Kislev, Adar in a leap year) is kept:
 * as the plain date, or by the customs of a birthday or of a yahrzeit (`@hebcal/core` applies them).
 */
export type HebrewDateCustom = "date" | "birthday" | "yahrzeit";

export interface Recurrence {
  type: RecurrenceType;
  /** Local "HH:mm" (daily, weekly, monthly, rrule). */
  time?: string;
  /** 0 = Sunday … 6 = Saturday (weekly). */
  days?: number[];
  /** 1–31 (monthly); in a shorter month, the month's last day. */
  dayOfMonth?: number;
  /** Minutes between nudges (nudge). */
  intervalMinutes?: number;
  /**
   * rrule: the RFC 5545 rule without DTSTART, UNTIL or COUNT, e.g. "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU"
   * (see recurrenceRule.ts for the parts read).
   */
  rule?: string;
  /**
   * rrule: the local date "YYYY-MM-DD" the series is anchored on, its first possible day: INTERVAL
   * counts from it, and the parts a rule leaves out (a yearly rule's month and day) are taken from it.
   */
  start?: string;
  /**
   * hebrew: a Hebrew date every year, ringing at `time` on the Gregorian day it falls on. `month`
   * is hebcal's numbering (Nisan 1 … Adar I 12, Adar II 13; Adar 12 as said in a common year).
   */
  hebrew?: { month: number; day: number; custom: HebrewDateCustom };
  /** hebrew: ring on the evening before, when the Hebrew day begins. */
  eve?: boolean;
  /** ISO instant; no occurrence after it. */
  until?: string;
}
