import type { Entry, Translation } from "./entries.js";

/** Commands Memo understands without a language model (the fast path), as shown to users. */
const FAST_COMMANDS_EN =
  '\n• "remind me tomorrow at 9 to call mom"\n• "my tasks", "done 2", "delete task 3"\n• "add milk, eggs to shopping list", "show shopping list", "clear shopping list", "sort shopping list", "delete shopping list", "my lists"\n• "my calendar tomorrow", "calendar link", "connect Google"\n• "note: the wifi password is …", "search notes for wifi", "my notes", "my documents" (send me a PDF, Word or text file to keep it)\n• "what do you remember about me?", "what changed?", "what did we decide about the trip?", "forget that …"\n• "remind me every year on 15 Shevat to plant a tree", "remind me on Christmas at 6 pm to call grandma", "when is Rosh Hashana?", "what\'s the Hebrew date today?"\n• "quiet on Shabbat and holidays", "weekly review", "turn on the weekly review"\n• "undo" takes back the last change (a deletion, a task marked done, an edit)\n• "add Dana 052-7654321 to my household", "my household", "our tasks" (lists and reminders shared with the people you live with)';
const FAST_COMMANDS_HE =
  '\n• "תזכיר לי מחר ב-9 להתקשר לאמא"\n• "המשימות שלי", "בוצע 2", "תמחק משימה 3"\n• "תוסיף חלב, ביצים לרשימת קניות", "תראה לי את רשימת קניות", "נקה את רשימת קניות", "סדר את רשימת קניות", "תמחק את רשימת קניות", "הרשימות שלי"\n• "מה יש לי ביומן מחר", "קישור ליומן", "חבר גוגל"\n• "פתק: הסיסמה של הוויפי היא …", "חפש בפתקים וויפי", "הפתקים שלי", "המסמכים שלי" (אפשר לשלוח לי קובץ PDF, וורד או טקסט לשמירה)\n• "מה אתה זוכר עליי?", "מה השתנה?", "מה החלטנו על החופשה?", "תשכח ש…"\n• "תזכיר לי כל שנה בט״ו בשבט לשתול עץ", "תזכיר לי ערב ראש השנה ב-18:00 לקנות פרחים", "מתי פסח השנה?", "איזה תאריך עברי היום?"\n• "שקט בשבת ובחגים", "סיכום שבועי", "תפעיל סיכום שבועי"\n• "בטל" מחזיר את השינוי האחרון (מחיקה, משימה שסומנה כבוצעה, עריכה)\n• "תוסיף את דנה 052-7654321 למשק הבית", "משק הבית שלי", "המשימות שלנו" (רשימות ותזכורות משותפות עם מי שגר איתך)';

/** Conversation-wide sentences: help, questions and their answers, errors, media, greetings. */
export const CORE_EN = {
  noLLM:
    "Without a language model I understand commands like these:" +
    FAST_COMMANDS_EN +
    "\nEverything else needs a language model to be configured (OPENAI_API_KEY, or OPENAI_BASE_URL for a compatible server; see .env.example).",
  helpNoLLM:
    "Here's what I can do for you:" +
    FAST_COMMANDS_EN +
    "\nThat's without a language model, in Hebrew or English; with one configured (OPENAI_API_KEY, or OPENAI_BASE_URL; see .env.example) I also understand free-form requests.",
  rememberedNoLLM:
    '🧠 Got it, I\'ll keep that in mind: {facts}. (Say "what do you remember about me?" to see everything, "forget that …" to undo.)',
  staleReply: "I'm not waiting on a question right now — what would you like to do?",
  hitlExpired: "Your earlier question timed out, so I dropped it.",
  invalidYesNo: "Please answer yes or no.",
  invalidSingle: "Please pick one of the options by its number.",
  invalidMulti: "Please pick options by their numbers, e.g. 1, 3.",
  invalidFreeText: "I didn't catch an answer there.",
  cancelled: "OK, I won't do that.",
  confirmDeleteSeveral: "That deletes {count} things at once:\n{names}\nShould I go ahead?",
  tooManyInvalid: "Let's leave that for now. Tell me again whenever you're ready.",
  tooManyRounds: "I still couldn't work out what you need. Could you say it again in one sentence?",
  connectGoogle:
    'To use {capability} I need access to your Google account. Say "connect Google" and I\'ll send you a link.',
  capabilityUnavailable: "I can't help with {capability} yet.",
  notInPlan: "Sorry, your plan doesn't include {capability}, so I can't do that. Anything else, just ask.",
  internalError: "Something went wrong on my side. Please try again in a moment.",
  // A step skipped because the step it depended on did not give it anything: what and why.
  skippedAfterFailed: "So I didn't {skipped}: I couldn't {dependency}.",
  skippedAfterDeclined: "So I didn't {skipped}, since you chose not to {dependency}.",
  "stepVerb.create": "create {object}",
  "stepVerb.add": "add {object}",
  "stepVerb.update": "change {object}",
  "stepVerb.move": "move {object}",
  "stepVerb.complete": "mark {object} done",
  "stepVerb.delete": "delete {object}",
  "stepVerb.find": "find {object}",
  "stepVerb.forward": "forward {object}",
  "stepVerb.send": "send {object}",
  "stepVerb.reply": "reply to {object}",
  "stepVerb.store": "save {object}",
  "stepVerb.rename": "rename {object}",
  "stepVerb.clear": "clear {object}",
  "stepVerb.tick": "tick {object}",
  "stepObject.named": "{noun} “{name}”",
  "stepObject.quoted": "“{name}”",
  "stepNoun.list": "the list",
  "stepNoun.item": "the item",
  "stepNoun.task": "the task",
  "stepNoun.tasks": "the tasks",
  "stepNoun.event": "the event",
  "stepNoun.events": "the events",
  "stepNoun.email": "the email",
  "stepNoun.note": "the note",
  "stepNoun.thing": "it",
  llmFailed: "I'm having trouble thinking right now. Please try again in a minute.",
  budgetReached:
    "You've used up today's allowance for requests I need my language model for, so until midnight I can only do quick commands like these:" +
    FAST_COMMANDS_EN +
    "\nEverything else works again tomorrow.",
  confirmQuestion: "Should I go ahead?",
  confirmCreate: {
    one: "That adds this to {where}:\n{names}\nShould I go ahead?",
    other: "That adds {count} things to {where} at once:\n{names}\nShould I go ahead?",
  },
  confirmCreateUnnamed: {
    one: "That adds something new to {where}. Should I go ahead?",
    other: "That adds {count} new things to {where} at once. Should I go ahead?",
  },
  "confirmCreate.more": "…and {count} more",
  forwardedAsks: "This message was forwarded, so I'm checking with you before I act on it.",
  clarifyQuestion: "Could you tell me a bit more about what you'd like me to do?",
  clarifyBetween: "Is this about {options}?",
  or: "or",
  missingFields: "I need a bit more to do that: {fields}.",
  disambiguate: "I found several {entity}. Which one did you mean?",
  partialFailure: "Some of it didn't work: {errors}",
  yes: "Yes",
  no: "No",
  approve: "Approve",
  edit: "Edit",
  cancel: "Cancel",
  askEdit: "What should I change?",
  tooManyEdits:
    "That's a lot of changes; I've left it unsent. Tell me again from the start when you're ready.",
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
    "I can read text, voice notes, photos and documents (PDF, Word, text files), but I can't open {kind} yet. Could you write it to me instead?",
  "kind.location": "locations",
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
  photoDocumentSaved:
    "📄 I read the page and saved it as a document: *{title}*. Ask me anything about it, or find it later with “search notes for …”.",
  hitlLeft: "(I left my earlier question unanswered: nothing was done for it.)",
  hitlOrInvitation:
    "You also have an open invitation to a household, so I'm not sure what that answers. To answer the invitation, reply to it (quote it) or tap its button; to answer my question below, reply to it.",
  hitlExpiredChoiceTaken: "Your earlier question had timed out, but I still took your choice from its list.",
  hitlLeftChoiceTaken: "(I took your choice from my earlier question's list.)",
  "help.intro": "Here's what I can do for you:",
  "help.database":
    '• *Tasks & reminders*: "remind me tomorrow at 9 to call mom", "every Sunday at 8:00", nudges until it\'s done; shopping lists and checklists',
  "help.calendar": "• *Calendar*: add, move and look up events",
  "help.gmail": "• *Email*: search, read, draft and send, always with your approval",
  "help.second-brain":
    '• *Notes & memory*: "note: …", "what\'s my wifi password?"; I remember what you tell me about yourself and what we decided ("what do you remember about me?", "where did I live in March?", "forget that…")',
  "help.general": "• *Questions*: ask me anything, or think something through with me",
  "help.outro":
    'Write to me in Hebrew or English. When something is unclear, I\'ll ask before acting. Changed something by mistake? Say "undo".',
  // Durations ("late by 2 hours", "a 90-minute meeting")
  "duration.minutes": { one: "1 minute", other: "{count} minutes" },
  "duration.hours": { one: "1 hour", other: "{count} hours" },
  "duration.days": { one: "1 day", other: "{count} days" },
  /** The minutes after whole hours: "2 hours 5 minutes". */
  "duration.andMinutes": { one: "1 minute", other: "{count} minutes" },
} as const satisfies Record<string, Entry>;

export const CORE_HE = {
  noLLM:
    "בלי מודל שפה אני מבין פקודות כמו:" +
    FAST_COMMANDS_HE +
    "\nלכל השאר צריך להגדיר מודל שפה (OPENAI_API_KEY, או OPENAI_BASE_URL לשרת תואם; ראו .env.example).",
  helpNoLLM:
    "הנה מה שאני יכול לעשות בשבילך:" +
    FAST_COMMANDS_HE +
    "\nזה בלי מודל שפה, בעברית או באנגלית; כשמוגדר מודל (OPENAI_API_KEY, או OPENAI_BASE_URL; ראו .env.example) אני מבין גם בקשות חופשיות.",
  rememberedNoLLM:
    "🧠 הבנתי, אזכור: {facts}. (אפשר לשאול „מה אתה זוכר עליי?” כדי לראות הכל, או „תשכח ש…” כדי לבטל.)",
  staleReply: "אני לא מחכה לתשובה ממך כרגע — במה אפשר לעזור?",
  hitlExpired: "השאלה הקודמת שלי פגה, אז ביטלתי אותה.",
  invalidYesNo: "נא לענות כן או לא.",
  invalidSingle: "נא לבחור אחת מהאפשרויות לפי המספר שלה.",
  invalidMulti: "נא לבחור אפשרויות לפי המספרים שלהן, למשל 1, 3.",
  invalidFreeText: "לא קלטתי תשובה.",
  cancelled: "בסדר, לא אעשה את זה.",
  confirmDeleteSeveral: "זה מוחק {count} דברים בבת אחת:\n{names}\nלהמשיך?",
  tooManyInvalid: "נעזוב את זה בינתיים. אפשר לכתוב לי שוב בכל זמן.",
  tooManyRounds: "עדיין לא הצלחתי להבין מה צריך. אפשר לנסח את זה שוב במשפט אחד?",
  connectGoogle: 'כדי להשתמש ב{capability} אני צריך גישה לחשבון Google שלך. כתבו "חבר גוגל" ואשלח קישור.',
  capabilityUnavailable: "אני עוד לא יכול לעזור עם {capability}.",
  notInPlan:
    "מצטער, השימוש ב{capability} לא כלול בתוכנית שלך, אז את זה אני לא יכול לעשות. בכל דבר אחר אשמח לעזור.",
  internalError: "משהו השתבש אצלי. כדאי לנסות שוב בעוד רגע.",
  skippedAfterFailed: "לכן לא המשכתי {skipped}: לא הצלחתי {dependency}.",
  skippedAfterDeclined: "לכן לא המשכתי {skipped}, כי בחרת לא {dependency}.",
  "stepVerb.create": "ליצור את {object}",
  "stepVerb.add": "להוסיף את {object}",
  "stepVerb.update": "לשנות את {object}",
  "stepVerb.move": "להזיז את {object}",
  "stepVerb.complete": "לסמן את {object} כבוצע",
  "stepVerb.delete": "למחוק את {object}",
  "stepVerb.find": "למצוא את {object}",
  "stepVerb.forward": "להעביר את {object}",
  "stepVerb.send": "לשלוח את {object}",
  "stepVerb.reply": "לענות על {object}",
  "stepVerb.store": "לשמור את {object}",
  "stepVerb.rename": "לשנות את השם של {object}",
  "stepVerb.clear": "לרוקן את {object}",
  "stepVerb.tick": "לסמן את {object}",
  "stepObject.named": "{noun} “{name}”",
  "stepObject.quoted": "“{name}”",
  "stepNoun.list": "הרשימה",
  "stepNoun.item": "הפריט",
  "stepNoun.task": "המשימה",
  "stepNoun.tasks": "המשימות",
  "stepNoun.event": "האירוע",
  "stepNoun.events": "האירועים",
  "stepNoun.email": "המייל",
  "stepNoun.note": "הפתק",
  "stepNoun.thing": "זה",
  llmFailed: "יש לי קושי זמני לחשוב. כדאי לנסות שוב בעוד דקה.",
  budgetReached:
    "הגעת למכסה היומית של בקשות שדורשות ממני את מודל השפה, אז עד חצות אני יכול לעשות רק פקודות מהירות כמו:" +
    FAST_COMMANDS_HE +
    "\nכל השאר יחזור לעבוד מחר.",
  confirmQuestion: "להמשיך?",
  confirmCreate: {
    one: "זה מוסיף את זה ל{where}:\n{names}\nלהמשיך?",
    other: "זה מוסיף {count} דברים ל{where} בבת אחת:\n{names}\nלהמשיך?",
  },
  confirmCreateUnnamed: {
    one: "זה מוסיף משהו חדש ל{where}. להמשיך?",
    other: "זה מוסיף {count} דברים חדשים ל{where} בבת אחת. להמשיך?",
  },
  "confirmCreate.more": "…ועוד {count}",
  forwardedAsks: "ההודעה הזאת הועברה, אז אני בודק איתך לפני שאני עושה משהו לפיה.",
  clarifyQuestion: "אפשר לפרט קצת יותר מה לעשות?",
  clarifyBetween: "זה קשור ל{options}?",
  or: "או",
  missingFields: "חסר לי עוד קצת מידע: {fields}.",
  disambiguate: "מצאתי כמה {entity}. למה התכוונת?",
  partialFailure: "חלק לא הצליח: {errors}",
  yes: "כן",
  no: "לא",
  approve: "אישור",
  edit: "עריכה",
  cancel: "ביטול",
  askEdit: "מה לשנות?",
  tooManyEdits: "זה הרבה שינויים; השארתי את זה בלי לשלוח. אפשר לכתוב לי שוב מההתחלה בכל זמן.",
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
    "אני קורא הודעות טקסט, הודעות קוליות, תמונות ומסמכים (PDF, וורד, קובצי טקסט), אבל עוד לא {kind}. אפשר לכתוב לי את זה במקום?",
  "kind.location": "מיקומים",
  "kind.sticker": "מדבקות",
  "kind.video": "סרטונים",
  "kind.contacts": "אנשי קשר",
  "kind.other": "הודעות מהסוג הזה",
  voiceHeard: '🎤 שמעתי: "{text}"',
  mediaTooLarge: "הקובץ הזה גדול מדי בשבילי (מעל {megabytes} MB). אפשר לשלוח קובץ קטן יותר?",
  voiceEmpty: "לא הצלחתי לשמוע מילים בהודעה הקולית. אפשר להגיד שוב, או לכתוב?",
  voiceUnavailable:
    "אני לא יכול להקשיב להודעות קוליות עד שיוגדר מודל דיבור (OPENAI_API_KEY). אפשר לכתוב במקום?",
  imageUnavailable: "אני לא יכול לראות תמונות עד שיוגדר מודל ראייה (OPENAI_API_KEY). אפשר לספר לי מה יש בה?",
  imageTasks: "*משימות שמצאתי:*",
  imageEvents: "*אירועים:*",
  imageItems: "*פריטים:*",
  imageText: "*טקסט:*",
  imageOfferTasks: '"תוסיף את אלה כמשימות"',
  imageOfferEvents: '"תוסיף את האירוע ליומן"',
  imageOfferItems: '"תשמור את זה כרשימה"',
  imageOfferNote: '"תשמור את זה כפתק"',
  imageOffer: "לעשות עם זה משהו? אפשר לכתוב למשל {examples}.",
  imageOfferRandom: "אם צריך לעשות עם זה משהו, אפשר פשוט לכתוב לי.",
  photoDocumentSaved:
    "📄 קראתי את הדף ושמרתי אותו כמסמך: *{title}*. אפשר לשאול אותי עליו כל דבר, או למצוא אותו אחר כך עם „חפש בפתקים …”.",
  hitlLeft: "(השארתי את השאלה הקודמת שלי בלי תשובה: לא נעשה בשבילה כלום.)",
  hitlOrInvitation:
    "יש לך גם הזמנה פתוחה למשק בית, אז לא ברור לי למה זו תשובה. כדי לענות להזמנה, השב/י עליה (בציטוט) או הקש/י על הכפתור שלה; כדי לענות לשאלה שלי למטה, השב/י עליה.",
  hitlExpiredChoiceTaken: "השאלה הקודמת שלי כבר פגה, אבל לקחתי את הבחירה שלך מהרשימה שלה.",
  hitlLeftChoiceTaken: "(לקחתי את הבחירה שלך מהרשימה של השאלה הקודמת שלי.)",
  "help.intro": "הנה מה שאני יכול לעשות בשבילך:",
  "help.database":
    '• *משימות ותזכורות*: "תזכיר לי מחר ב-9 להתקשר לאמא", "כל יום ראשון ב-8:00", נדנודים עד שזה נעשה; רשימות קניות וצ\'קליסטים',
  "help.calendar": "• *יומן*: להוסיף, להזיז ולבדוק אירועים",
  "help.gmail": "• *מייל*: לחפש, לקרוא, לנסח ולשלוח, תמיד באישור שלך",
  "help.second-brain":
    '• *פתקים וזיכרון*: "פתק: …", "מה הסיסמה של הוויפי?"; אני זוכר את מה שסיפרת לי על עצמך ומה החלטנו ("מה אתה זוכר עליי?", "איפה גרתי במרץ?", "תשכח ש…")',
  "help.general": "• *שאלות*: אפשר לשאול אותי הכל, או לחשוב איתי על משהו",
  "help.outro":
    'אפשר לכתוב לי בעברית או באנגלית. כשמשהו לא ברור, אשאל לפני שאפעל. שיניתי משהו בטעות? כתבו "בטל".',
  "duration.minutes": { one: "דקה", other: "{count} דקות" },
  "duration.hours": { one: "שעה", two: "שעתיים", other: "{count} שעות" },
  "duration.days": { one: "יום", two: "יומיים", other: "{count} ימים" },
  "duration.andMinutes": { one: "ודקה", other: "ו-{count} דקות" },
} as const satisfies Translation<typeof CORE_EN>;
