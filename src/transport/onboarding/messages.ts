import { fillTemplate } from "../../messages/index.js";
/** The fixed sentences of onboarding and of time-zone changes. */
export type OnboardingKey =
  | "welcome"
  | "askTimeZone"
  | "chooseButton"
  | "timeZoneSet"
  | "timeZoneUnknown"
  | "timeZoneCurrent"
  | "timeZoneWhich";

/**
 * Every onboarding sentence in English and Hebrew; `satisfies` makes a key missing in either
 * language a type error. Placeholders: {zone} a zone label, {time} HH:mm, {place} the user's words.
 */
export const ONBOARDING_MESSAGES = {
  en: {
    // The caller appends the list of capabilities, which opens with "Here's what I can do for you:".
    welcome: "Hi, nice to meet you! I'm Memo, your personal secretary right here on WhatsApp.",
    askTimeZone:
      "Which time zone are you in? My guess is {zone} — pick yours from the list, or write a city.",
    // A WhatsApp list button holds at most 20 characters.
    chooseButton: "Choose time zone",
    timeZoneSet: "Done — your time zone is now {zone}. It's {time} there.",
    timeZoneUnknown:
      'I don\'t know the place "{place}". Try a city or a country, or a zone like Europe/London or UTC+2.',
    timeZoneCurrent:
      'Your time zone is {zone}; it\'s {time} there now. To change it, write e.g. "change my time zone to Tokyo".',
    timeZoneWhich: 'I found several time zones for "{place}" — which one is yours?',
  },
  he: {
    welcome: "היי, נעים להכיר! אני Memo, המזכיר האישי שלך כאן בוואטסאפ.",
    askTimeZone: "מה אזור הזמן שלך? ניחשתי {zone} — אפשר לבחור מהרשימה או לכתוב שם של עיר.",
    chooseButton: "בחירת אזור זמן",
    timeZoneSet: "עודכן! אזור הזמן שלך הוא עכשיו {zone}, והשעה שם {time}.",
    timeZoneUnknown:
      'לא הצלחתי לזהות את "{place}". אפשר לכתוב שם של עיר או מדינה, או אזור זמן כמו Europe/London או UTC+2.',
    timeZoneCurrent:
      'אזור הזמן שלך הוא {zone}, והשעה שם עכשיו {time}. כדי לשנות אותו, אפשר לכתוב למשל "שנה אזור זמן לטוקיו".',
    timeZoneWhich: 'מצאתי כמה אזורי זמן עבור "{place}" — איזה מהם שלך?',
  },
} as const satisfies Record<"he" | "en", Record<OnboardingKey, string>>;

/** The sentence `key` in `language`, with `{name}` placeholders filled (unknown ones stay as written). */
export function onboardingMessage(
  language: "he" | "en",
  key: OnboardingKey,
  vars: Record<string, string> = {},
): string {
  return fillTemplate(ONBOARDING_MESSAGES[language][key], vars);
}
