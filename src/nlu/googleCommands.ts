/** What a "connect Google" / "disconnect Google" / "calendar link" message asks for (a meta action of the same name). */
export type GoogleCommand = "connect_google" | "disconnect_google" | "calendar_feed";

/** Polite openings that change nothing: "please", "can you", "אני רוצה"… */
const EN_LEAD = String.raw`(?:(?:please|pls|can you|could you|would you|i want to|i wanna|i'd like to|i would like to|let's|lets|help me) )*`;
const HE_LEAD = String.raw`(?:(?:בבקשה|אפשר|אני רוצה|רוצה|אני צריך|תעזור לי|תוכל) )*`;

/** The account, in the ways people name it: "google", "my google account", "gmail"… */
const EN_OBJECT = String.raw`(?:(?:to|with|from|of|up|up with) )?(?:(?:my|the|a|your) )?(?:google|gmail)(?: (?:account|calendar|access))?`;
/** "גוגל", "את גוגל", "את חשבון הגוגל שלי", "לגוגל", "מגוגל", "ג'ימייל"… */
const HE_OBJECT = String.raw`(?:את )?(?:של |עם |ל|מ)?(?:ה)?(?:(?:חשבון|יומן) (?:ה)?)?(?:גוגל|ג'?ימייל|google|gmail)(?: (?:חשבון|יומן))?(?: שלי)?`;

const EN_TAIL = String.raw`(?: (?:please|for me|now|again))*`;
const HE_TAIL = String.raw`(?: (?:בבקשה|עכשיו|שוב|מחדש))*`;

const EN_CONNECT = String.raw`connect|reconnect|re-connect|link|relink|hook up|set up|setup|add|sign in|log in|login|authorize|authorise`;
const EN_DISCONNECT = String.raw`disconnect|unlink|unhook|remove|revoke|sign out|log out|logout`;
/** Imperative, future and infinitive forms, either gender; "התחבר לגוגל" too. */
const HE_CONNECT = String.raw`(?:חבר|תחבר|לחבר|חברי|תחברי|חיבור|התחבר|תתחבר|להתחבר|התחברי|תתחברי)(?: לי)?(?: מחדש)?`;
const HE_DISCONNECT = String.raw`(?:נתק|תנתק|לנתק|נתקי|תנתקי|ניתוק|התנתק|תתנתק|להתנתק|התנתקי|תתנתקי|(?:בטל|תבטל|לבטל) (?:את )?(?:ה)?חיבור|הסר|תסיר|להסיר)(?: לי)?`;

const whole = (lead: string, verbs: string, object: string, tail: string) =>
  new RegExp(`^${lead}(?:${verbs}) ${object}${tail}$`, "u");

const CONNECT = [
  whole(EN_LEAD, EN_CONNECT, EN_OBJECT, EN_TAIL),
  whole(HE_LEAD, HE_CONNECT, HE_OBJECT, HE_TAIL),
];
const DISCONNECT = [
  whole(EN_LEAD, EN_DISCONNECT, EN_OBJECT, EN_TAIL),
  whole(HE_LEAD, HE_DISCONNECT, HE_OBJECT, HE_TAIL),
];

/** "calendar link", "subscribe to my calendar", "how do I see my calendar on my phone", "קישור ליומן"… */
const CALENDAR_FEED = [
  /^(?:(?:please|can you|could you) )*(?:(?:send|give) me )?(?:(?:my|the|a) )?(?:calendar|ical|ics) (?:link|feed|url|subscription)$/u,
  /^(?:how (?:do|can) i |i want to |can i |let me )?(?:subscribe to|sync|see|add|get|view) (?:my|the) (?:memo )?calendar (?:on|in|to|with) (?:my )?(?:phone|iphone|android|computer|google calendar|outlook|apple calendar|calendar app)$/u,
  /^(?:how (?:do|can) i |i want to |can i )?subscribe to (?:my|the) (?:memo )?calendar$/u,
  /^(?:(?:שלח|תשלח|תן|תביא) לי )?(?:את )?(?:ה)?(?:קישור|לינק) ל?(?:ה)?יומן(?: שלי)?$/u,
  /^(?:איך )?(?:אני )?(?:לסנכרן|לראות|להוסיף|סנכרן|תסנכרן) (?:את )?(?:ה)?יומן(?: שלי)? (?:ב|ל)(?:ה)?(?:טלפון|אייפון|מחשב|יומן גוגל|אאוטלוק)$/u,
];

/** Lower case, spaces folded, Hebrew geresh as an apostrophe, no surrounding punctuation or emoji. */
function normalize(text: string): string {
  return text
    .toLowerCase()
    .replace(/[׳’`]/g, "'")
    .replace(/\s+/g, " ")
    .replace(/^[\s\p{P}\p{S}]+|[\s\p{P}\p{S}]+$/gu, "")
    .trim();
}

/**
 * Whether the whole message asks to connect or disconnect the user's Google account, in English or
 * Hebrew ("connect Google", "connect my google account", "חבר גוגל", "נתק גוגל"…); null otherwise.
 * Only whole messages count: "connect google calendar to the meeting room" is not a command.
 */
export function recognizeGoogleCommand(text: string): GoogleCommand | null {
  const normalized = normalize(text);
  if (DISCONNECT.some((pattern) => pattern.test(normalized))) return "disconnect_google";
  if (CONNECT.some((pattern) => pattern.test(normalized))) return "connect_google";
  if (CALENDAR_FEED.some((pattern) => pattern.test(normalized))) return "calendar_feed";
  return null;
}
