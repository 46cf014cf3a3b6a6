/** What each plan allows; the capability check combines it with connections (Google). */
export interface CapabilityFlags {
  calendar: boolean;
  gmail: boolean;
  database: boolean;
  secondBrain: boolean;
}

export type Language = "he" | "en" | "other";
/** The user's plan (users.plan_tier; default free). */
export type PlanTier = "free" | "pro" | "enterprise";

/** A Memo user as stored; times are ISO strings so they survive checkpoints unchanged. */
export interface User {
  /** Normalized phone (E.164 digits, no plus): the key everywhere. */
  phone: string;
  displayName: string | null;
  /** IANA time zone, e.g. Asia/Jerusalem. */
  timeZone: string;
  /** null until the first message tells us. */
  language: Language | null;
  planTier: PlanTier;
  capabilities: CapabilityFlags;
  googleConnected: boolean;
  lastInboundAt: string | null;
  digestEnabled: boolean;
  /** Local wall time of the morning digest, HH:mm. */
  digestLocalTime: string;
  /** Quiet hours, local HH:mm (both null: off); nudges wait until they end. */
  quietStart: string | null;
  quietEnd: string | null;
  /** The holiday schedule the user chose (null: from the zone, src/nlu/hebrewCalendar.ts scheduleOf). */
  calendarSchedule: "israel" | "diaspora" | null;
  /** Quiet on Shabbat and the holidays of the schedule: no proactive message from candle lighting to havdalah. */
  sabbathQuiet: boolean;
  /** The `@hebcal/core` city whose candle-lighting and havdalah times are used (null: the zone's). */
  sabbathCity: string | null;
  /** The user's Hebrew birthday once said (hebcal month numbers), for "on my Hebrew birthday". */
  hebrewBirthday: { month: number; day: number } | null;
  /** The opt-in weekly review, its local weekday (0 = Sunday) and HH:mm (null: the zone's default). */
  weeklyReviewEnabled: boolean;
  weeklyReviewDay: number | null;
  weeklyReviewTime: string | null;
  /** "Answer me by voice": every reply as a voice note, with the text of what must be read or tapped. */
  voiceReplies: boolean;
  /** Zones offered by the open onboarding time-zone question, or null when none is open. */
  timeZoneChoices: string[] | null;
  createdAt: string;
  updatedAt: string;
}

/** Fields a caller may set when creating or updating a user. */
export type UserPatch = Partial<
  Pick<
    User,
    | "displayName"
    | "timeZone"
    | "language"
    | "planTier"
    | "capabilities"
    | "googleConnected"
    | "digestEnabled"
    | "digestLocalTime"
    | "quietStart"
    | "quietEnd"
    | "calendarSchedule"
    | "sabbathQuiet"
    | "sabbathCity"
    | "hebrewBirthday"
    | "weeklyReviewEnabled"
    | "weeklyReviewDay"
    | "weeklyReviewTime"
    | "voiceReplies"
    | "timeZoneChoices"
  >
>;
