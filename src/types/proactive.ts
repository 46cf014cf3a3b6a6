/** What a proactive message says, kept as data in the delivery ledger and rendered when it is sent. */

/** Which kind of ring a reminder's delivery is. */
export type RingKind = "reminder" | "nudge" | "recurring" | "overdue";

type Language = "he" | "en";

/** One ring of one task. */
export interface RingContent {
  kind: RingKind;
  language: Language;
  /** The user's zone now (times are shown in it). */
  timeZone: string;
  taskId: string;
  text: string;
  /** When it was due to ring (ISO). */
  fireAt: string;
  /** The task's due time, shown when the ring comes before it. */
  dueAt: string | null;
  /** A nudge's interval, for its wording. */
  intervalMinutes?: number;
  /** Given by another member of the household: their household name ("from Yossi"). */
  from?: string;
  /** Held through a Shabbat or yom tov window: what it was for, in the user's language ("Shabbat"). */
  heldFor?: string[];
}

/** Occurrences more than a day late, gathered into one message. */
export interface AwayContent {
  kind: "away";
  language: Language;
  timeZone: string;
  items: { text: string; fireAt: string }[];
}

/** One line of the morning digest. */
export interface DigestLine {
  /** Local "HH:mm" shown before the text, when it has a time. */
  time?: string;
  text: string;
}

/** A block of the digest from another capability (the calendar's events, once it exists). */
export interface DigestSection {
  title: string;
  lines: DigestLine[];
}

export interface DigestContent {
  kind: "digest";
  language: Language;
  timeZone: string;
  /** The user's first name, when known. */
  name: string | null;
  /** The local day it covers, YYYY-MM-DD. */
  date: string;
  /** The digest instant (ISO). */
  digestAt: string;
  today: DigestLine[];
  overdue: DigestLine[];
  undated: number;
  sections: DigestSection[];
  /** Today's holidays or fasts on the user's schedule, in their language ("Erev Pesach"). */
  holidays?: string[];
  /**
   * Shabbat quiet: a window that begins today, its city, candle lighting and havdalah (ISO), and
   * the city's zone, where its times are said (absent in rows from before it: the user's zone).
   */
  candles?: { city: string; lightingAt: string; havdalahAt: string; timeZone?: string };
}

/** A section of the weekly review: at most a phone screen's lines, and how many more there are. */
export interface WeeklySection {
  lines: DigestLine[];
  /** Lines left out ("and 3 more"). */
  more: number;
}

/**
 * The weekly review (issue 36): what got done in the past 7 days, what is overdue (numbered, so
 * "done 2" / "move 2 to Friday" act on it), what is coming in the next 7 days, the week's
 * holidays, and the open items of shared lists; the calendar's events join at send time.
 */
export interface WeeklyContent {
  kind: "weekly";
  language: Language;
  timeZone: string;
  name: string | null;
  /** The local date of the review's day, YYYY-MM-DD (its ledger key). */
  date: string;
  /** The review instant (ISO): the week runs from it. */
  reviewAt: string;
  done: WeeklySection;
  /** Numbered 1…N in this order; `taskIds` are the tasks those numbers name. */
  overdue: WeeklySection & { taskIds: string[] };
  coming: WeeklySection;
  holidays: WeeklySection;
  shared: WeeklySection;
  /** Other capabilities' sections for the week (the calendar's events), added at send time. */
  sections: DigestSection[];
}

/**
 * A message to a member (or a person invited) about their household: an invitation (with Accept /
 * Decline buttons), a notice that someone joined or left, shared a list or gave them a task, that
 * a reminder they gave was done or is still open, and the batched notice of shared-list changes.
 */
export type HouseholdContent = {
  kind: "household";
  language: Language;
  timeZone: string;
  /** Who it is about: the inviter's name and number, the member who joined, left, shared or did it. */
  who: string;
} & (
  | { notice: "invitation"; /** The invitation its buttons answer. */ invitationId: string }
  | { notice: "joined" }
  /**
   * `lost`: names of the shared lists the reader no longer sees ("keep a copy" offered); `ended`:
   * the reader was the one left, so the household ended, with its open invitations (`withdrawn`,
   * as the household named those invited).
   */
  | { notice: "left" | "removed"; lost?: string[]; ended?: boolean; withdrawn?: string[] }
  | { notice: "shared"; list: string }
  /** A task given to the reader. */
  | { notice: "task"; text: string }
  /** A task or reminder the reader gave: done, or still open an hour after it rang (`rangAt`). */
  | { notice: "done" | "stillOpen"; text: string; rangAt?: string }
  /** Others' additions to shared lists since the last notice. */
  | { notice: "lists"; changes: { who: string; list: string; count: number }[] }
);

/** What a delivery says; `viaTemplate`: WhatsApp refused it free-form (131047), so it goes as the template. */
export type ProactiveContent = (
  RingContent | AwayContent | DigestContent | WeeklyContent | HouseholdContent
) & {
  viaTemplate?: boolean;
};
