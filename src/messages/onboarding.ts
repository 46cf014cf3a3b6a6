import type { Entry, Translation } from "./entries.js";

/** Onboarding and time-zone changes. Placeholders: {zone} a zone label, {time} HH:mm, {place} the user's words. */
export const ONBOARDING_EN = {
  // The caller appends the list of capabilities, which opens with "Here's what I can do for you:".
  "onboarding.welcome": "Hi, nice to meet you! I'm Memo, your personal secretary right here on WhatsApp.",
  "onboarding.askTimeZone":
    "Which time zone are you in? My guess is {zone} — pick yours from the list, or write a city.",
  // A WhatsApp list button holds at most 20 characters.
  "onboarding.chooseButton": "Choose time zone",
  "onboarding.timeZoneSet": "Done — your time zone is now {zone}. It's {time} there.",
  "onboarding.timeZoneUnknown":
    'I don\'t know the place "{place}". Try a city or a country, or a zone like Europe/London or UTC+2.',
  "onboarding.timeZoneCurrent":
    'Your time zone is {zone}; it\'s {time} there now. To change it, write e.g. "change my time zone to Tokyo".',
  "onboarding.timeZoneWhich": 'I found several time zones for "{place}" — which one is yours?',
} as const satisfies Record<string, Entry>;

export const ONBOARDING_HE = {
  "onboarding.welcome": "היי, נעים להכיר! אני Memo, המזכיר האישי שלך כאן בוואטסאפ.",
  "onboarding.askTimeZone": "מה אזור הזמן שלך? ניחשתי {zone} — אפשר לבחור מהרשימה או לכתוב שם של עיר.",
  "onboarding.chooseButton": "בחירת אזור זמן",
  "onboarding.timeZoneSet": "עודכן! אזור הזמן שלך הוא עכשיו {zone}, והשעה שם {time}.",
  "onboarding.timeZoneUnknown":
    'לא הצלחתי לזהות את "{place}". אפשר לכתוב שם של עיר או מדינה, או אזור זמן כמו Europe/London או UTC+2.',
  "onboarding.timeZoneCurrent":
    'אזור הזמן שלך הוא {zone}, והשעה שם עכשיו {time}. כדי לשנות אותו, אפשר לכתוב למשל "שנה אזור זמן לטוקיו".',
  "onboarding.timeZoneWhich": 'מצאתי כמה אזורי זמן עבור "{place}" — איזה מהם שלך?',
} as const satisfies Translation<typeof ONBOARDING_EN>;
