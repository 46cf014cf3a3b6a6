import type { CapabilityName } from "../types/index.js";

/**
 * Every fixed sentence Memo says, in Hebrew and English. The one place where errors and
 * control-plane events become what the user reads.
 */
export const MESSAGES = {
  en: {
    noLLM:
      "I can only handle free-form requests once a language model is configured (OPENAI_API_KEY, or OPENAI_BASE_URL for a compatible server; see .env.example).",
    staleReply: "I'm not waiting on a question right now — what would you like to do?",
    hitlExpired: "Your earlier question timed out, so I dropped it.",
    invalidYesNo: "Please answer yes or no.",
    invalidSingle: "Please pick one of the options by its number.",
    invalidMulti: "Please pick options by their numbers, e.g. 1, 3.",
    invalidFreeText: "I didn't catch an answer there.",
    cancelled: "OK, I won't do that.",
    tooManyInvalid: "Let's leave that for now. Tell me again whenever you're ready.",
    tooManyRounds: "I still couldn't work out what you need. Could you say it again in one sentence?",
    connectGoogle:
      'To use {capability} I need access to your Google account. Say "connect Google" and I\'ll send you a link.',
    capabilityUnavailable: "I can't help with {capability} yet.",
    internalError: "Something went wrong on my side. Please try again in a moment.",
    llmFailed: "I'm having trouble thinking right now. Please try again in a minute.",
    confirmQuestion: "Should I go ahead?",
    clarifyQuestion: "Could you tell me a bit more about what you'd like me to do?",
    clarifyBetween: "Is this about {options}?",
    or: "or",
    missingFields: "I need a bit more to do that: {fields}.",
    disambiguate: "I found several {entity}. Which one did you mean?",
    partialFailure: "Some of it didn't work: {errors}",
    yes: "Yes",
    no: "No",
    "capability.calendar": "your calendar",
    "capability.gmail": "email",
    "capability.database": "tasks and reminders",
    "capability.second-brain": "notes",
    "capability.general": "that",
    "capability.meta": "that",
    greeting: "Hi! What can I do for you?",
    thanksReply: "You're welcome! 😊",
    turnFailed:
      'Sorry, I couldn\'t handle your message "{message}" because of a problem on my side. Please send it again in a few minutes.',
    unsupportedType:
      "I can read text, voice notes and photos, but I can't open {kind} yet. Could you write it to me instead?",
    "kind.location": "locations",
    "kind.document": "documents",
    "kind.sticker": "stickers",
    "kind.video": "videos",
    "kind.contacts": "contact cards",
    "kind.other": "this kind of message",
    voiceHeard: '🎤 I heard: "{text}"',
    mediaTooLarge: "That file is too big for me (over {megabytes} MB). Could you send a smaller one?",
    voiceEmpty: "I couldn't make out any words in that voice note. Could you say it again, or type it?",
    voiceUnavailable:
      "I can't listen to voice notes until a speech model is configured (OPENAI_API_KEY). Could you type it instead?",
    imageUnavailable:
      "I can't look at images until a vision model is configured (OPENAI_API_KEY). Could you tell me what's in it?",
    imageTasks: "*Tasks I found:*",
    imageEvents: "*Events:*",
    imageItems: "*Items:*",
    imageText: "*Text:*",
    imageOfferTasks: '"add these as tasks"',
    imageOfferEvents: '"add the event to my calendar"',
    imageOfferItems: '"save this as a list"',
    imageOfferNote: '"save this as a note"',
    imageOffer: "Want me to do something with it? Say for example {examples}.",
    imageOfferRandom: "Tell me if you'd like me to do something with it.",
  },
  he: {
    noLLM:
      "אוכל לטפל בבקשות חופשיות רק אחרי שיוגדר מודל שפה (OPENAI_API_KEY, או OPENAI_BASE_URL לשרת תואם; ראו .env.example).",
    staleReply: "אני לא מחכה לתשובה ממך כרגע — מה תרצה לעשות?",
    hitlExpired: "השאלה הקודמת שלי פגה, אז ביטלתי אותה.",
    invalidYesNo: "נא לענות כן או לא.",
    invalidSingle: "נא לבחור אחת מהאפשרויות לפי המספר שלה.",
    invalidMulti: "נא לבחור אפשרויות לפי המספרים שלהן, למשל 1, 3.",
    invalidFreeText: "לא קלטתי תשובה.",
    cancelled: "בסדר, לא אעשה את זה.",
    tooManyInvalid: "נעזוב את זה בינתיים. תכתוב לי שוב מתי שתרצה.",
    tooManyRounds: "עדיין לא הצלחתי להבין מה אתה צריך. תוכל לנסח את זה שוב במשפט אחד?",
    connectGoogle:
      'כדי להשתמש ב{capability} אני צריך גישה לחשבון Google שלך. כתוב "חבר גוגל" ואשלח לך קישור.',
    capabilityUnavailable: "אני עוד לא יכול לעזור עם {capability}.",
    internalError: "משהו השתבש אצלי. נסה שוב בעוד רגע בבקשה.",
    llmFailed: "יש לי קושי זמני לחשוב. נסה שוב בעוד דקה בבקשה.",
    confirmQuestion: "להמשיך?",
    clarifyQuestion: "תוכל לפרט קצת יותר מה תרצה שאעשה?",
    clarifyBetween: "זה קשור ל{options}?",
    or: "או",
    missingFields: "חסר לי עוד קצת מידע: {fields}.",
    disambiguate: "מצאתי כמה {entity}. למה התכוונת?",
    partialFailure: "חלק לא הצליח: {errors}",
    yes: "כן",
    no: "לא",
    "capability.calendar": "יומן",
    "capability.gmail": "מייל",
    "capability.database": "משימות ותזכורות",
    "capability.second-brain": "פתקים",
    "capability.general": "זה",
    "capability.meta": "זה",
    greeting: "היי! במה אפשר לעזור?",
    thanksReply: "בשמחה! 😊",
    turnFailed: 'מצטער, לא הצלחתי לטפל בהודעה "{message}" בגלל תקלה אצלי. אפשר לשלוח אותה שוב בעוד כמה דקות?',
    unsupportedType:
      "אני קורא הודעות טקסט, הודעות קוליות ותמונות, אבל עוד לא {kind}. אפשר לכתוב לי את זה במקום?",
    "kind.location": "מיקומים",
    "kind.document": "מסמכים",
    "kind.sticker": "מדבקות",
    "kind.video": "סרטונים",
    "kind.contacts": "אנשי קשר",
    "kind.other": "הודעות מהסוג הזה",
    voiceHeard: '🎤 שמעתי: "{text}"',
    mediaTooLarge: "הקובץ הזה גדול מדי בשבילי (מעל {megabytes} MB). אפשר לשלוח קובץ קטן יותר?",
    voiceEmpty: "לא הצלחתי לשמוע מילים בהודעה הקולית. אפשר להגיד שוב, או לכתוב?",
    voiceUnavailable:
      "אני לא יכול להקשיב להודעות קוליות עד שיוגדר מודל דיבור (OPENAI_API_KEY). אפשר לכתוב במקום?",
    imageUnavailable:
      "אני לא יכול לראות תמונות עד שיוגדר מודל ראייה (OPENAI_API_KEY). אפשר לספר לי מה יש בה?",
    imageTasks: "*משימות שמצאתי:*",
    imageEvents: "*אירועים:*",
    imageItems: "*פריטים:*",
    imageText: "*טקסט:*",
    imageOfferTasks: '"תוסיף את אלה כמשימות"',
    imageOfferEvents: '"תוסיף את האירוע ליומן"',
    imageOfferItems: '"תשמור את זה כרשימה"',
    imageOfferNote: '"תשמור את זה כפתק"',
    imageOffer: "לעשות עם זה משהו? אפשר לכתוב למשל {examples}.",
    imageOfferRandom: "אם תרצה שאעשה עם זה משהו, רק תגיד.",
  },
} as const;

export type MessageKey = keyof (typeof MESSAGES)["en"];

/** The sentence `key` in `language`, with `{name}` placeholders filled. */
export function t(language: "he" | "en", key: MessageKey, vars: Record<string, string> = {}): string {
  const template: string = MESSAGES[language][key];
  return template.replace(/\{(\w+)\}/g, (_, name: string) => vars[name] ?? `{${name}}`);
}

/** How a capability is named to the user. */
export function capabilityLabel(language: "he" | "en", capability: CapabilityName): string {
  return t(language, `capability.${capability}`);
}
