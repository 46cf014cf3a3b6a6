/** A recurring reminder's rule, as stored with its task (src/nlu/recurrence.ts computes its occurrences). */
export type RecurrenceType = "daily" | "weekly" | "monthly" | "nudge" | "rrule";

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
  /** ISO instant; no occurrence after it. */
  until?: string;
}
