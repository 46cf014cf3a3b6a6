import type { Entry, Translation } from "./entries.js";

/** The second brain: notes and the things Memo remembers about the user. */
export const NOTES_EN = {
  "notes.askContent": "What should I note?",
  "notes.askNewContent": "What should the note say now?",
  "notes.tooLong": "That's too long for one note (at most 4,000 characters). Could you split it?",
  "notes.whichNote": "Which note do you mean?",
  "notes.entity": "notes",
  "notes.entityMemory": "things I remember",
  "notes.notFound": "I couldn't find a note matching “{query}”.",
  "notes.notFoundAny": "I couldn't find that note.",
  "notes.noSuchNumber": "There's no number {n} in the last notes I showed you.",
  "notes.stored": "📝 Noted: “{quote}”",
  "notes.confirmDeleteNote": "Delete the note “{quote}”? Reply yes to delete it.",
  "notes.confirmUpdateNote": "Change the note “{quote}”?",
  "notes.confirmForget": "Forget that “{quote}”?",
  "notes.timeHint": '(I keep it as a note. To be reminded, say "remind me …".)',
  "notes.forgetNote":
    "I don't keep that among the things I remember, but one of your notes says it:\n“{quote}”\nDelete that note? Reply yes to delete it.",
  "notes.updated": "✏️ Note updated: “{quote}”",
  "notes.deleted": "🗑️ Deleted the note “{quote}”",
  "notes.deletedMany": {
    one: "🗑️ Deleted 1 note.",
    other: "🗑️ Deleted {count} notes.",
  },
  "notes.deletedAgain": "🗑️ The note is deleted.",
  "notes.foundHeading": "🔎 From your notes:",
  "notes.foundNone": "🔎 Nothing in your notes about “{query}”.",
  "notes.listHeading": "🗂️ Your notes ({total}):",
  "notes.listMore": "…and {more} more. Say “search notes for …” to find one.",
  "notes.listEmpty": '🗂️ You have no notes yet. Say "note: …" and I\'ll keep it.',
  "notes.summaryHeading": "🧾 What your notes say:",
  "notes.sources": "From these notes:",
  // Long-term memory.
  "notes.memoriesHeading": "🧠 What I remember about you:",
  "notes.memoriesNone":
    "🧠 I don't have anything remembered about you yet. Tell me things like \"I prefer morning meetings\" and I'll keep them in mind.",
  "notes.memoriesSummary": "I also keep a short summary of our earlier conversations.",
  "notes.memoriesHint":
    'Say "forget that …" or "forget 2" to make me forget something, or "forget everything".',
  "notes.faded": "faded",
  "notes.forgetNotFound":
    'I don\'t have anything remembered about “{query}”. Say "what do you remember about me?" to see what I keep.',
  "notes.whichMemory": "Which of these should I forget?",
  "notes.forgotten": "🧹 Forgotten: {facts}.",
  "notes.forgottenNotes": {
    one: "I also deleted 1 note that came from it.",
    other: "I also deleted {count} notes that came from it.",
  },
  "notes.forgottenAgain": "🧹 Done, I've forgotten it.",
  "notes.confirmForgetAll":
    "⚠️ This erases everything I remember about you: {facts} remembered things, {notes} notes and our conversation history. Your tasks, reminders, lists and calendar stay. It can't be undone. Reply yes to erase.",
  "notes.forgotAll":
    "🧹 Done. I've erased my memory of you: remembered things, notes and our conversation history.",
} as const satisfies Record<string, Entry>;

export const NOTES_HE = {
  "notes.askContent": "מה לרשום?",
  "notes.askNewContent": "מה הפתק צריך להגיד עכשיו?",
  "notes.tooLong": "זה ארוך מדי לפתק אחד (עד 4,000 תווים). אפשר לחלק אותו?",
  "notes.whichNote": "לאיזה פתק התכוונת?",
  "notes.entity": "פתקים",
  "notes.entityMemory": "דברים שאני זוכר",
  "notes.notFound": "לא מצאתי פתק שמתאים ל„{query}”.",
  "notes.notFoundAny": "לא מצאתי את הפתק הזה.",
  "notes.noSuchNumber": "אין מספר {n} בפתקים האחרונים שהראיתי לך.",
  "notes.stored": "📝 רשמתי: „{quote}”",
  "notes.confirmDeleteNote": "למחוק את הפתק „{quote}”? ענו כן כדי למחוק.",
  "notes.confirmUpdateNote": "לשנות את הפתק „{quote}”?",
  "notes.confirmForget": "לשכוח ש„{quote}”?",
  "notes.timeHint": "(שמרתי את זה כפתק. כדי לקבל תזכורת, כתבו „תזכיר לי …”.)",
  "notes.forgetNote":
    "זה לא בין הדברים שאני זוכר, אבל אחד הפתקים שלך אומר את זה:\n„{quote}”\nלמחוק את הפתק? ענו כן כדי למחוק.",
  "notes.updated": "✏️ הפתק עודכן: „{quote}”",
  "notes.deleted": "🗑️ מחקתי את הפתק „{quote}”",
  "notes.deletedMany": {
    one: "🗑️ מחקתי פתק אחד.",
    other: "🗑️ מחקתי {count} פתקים.",
  },
  "notes.deletedAgain": "🗑️ הפתק נמחק.",
  "notes.foundHeading": "🔎 מהפתקים שלך:",
  "notes.foundNone": "🔎 אין בפתקים שלך כלום על „{query}”.",
  "notes.listHeading": "🗂️ הפתקים שלך ({total}):",
  "notes.listMore": "…ועוד {more}. אפשר לכתוב „חפש בפתקים …” כדי למצוא פתק.",
  "notes.listEmpty": "🗂️ אין לך עדיין פתקים. כתבו „פתק: …” ואשמור אותו.",
  "notes.summaryHeading": "🧾 מה כתוב בפתקים שלך:",
  "notes.sources": "מהפתקים האלה:",
  "notes.memoriesHeading": "🧠 מה שאני זוכר עליך:",
  "notes.memoriesNone":
    "🧠 עדיין אין לי משהו שמור עליך. אפשר לספר לי דברים כמו „אני מעדיף פגישות בבוקר” ואזכור אותם.",
  "notes.memoriesSummary": "אני שומר גם סיכום קצר של השיחות הקודמות שלנו.",
  "notes.memoriesHint": "כתבו „תשכח ש…” או „תשכח את 2” כדי שאשכח משהו, או „תשכח הכל”.",
  "notes.faded": "דהוי",
  "notes.forgetNotFound": "אין לי משהו שמור על „{query}”. כתבו „מה אתה זוכר עליי?” כדי לראות מה שמור.",
  "notes.whichMemory": "מה מאלה לשכוח?",
  "notes.forgotten": "🧹 שכחתי: {facts}.",
  "notes.forgottenNotes": {
    one: "מחקתי גם פתק אחד שנרשם מזה.",
    other: "מחקתי גם {count} פתקים שנרשמו מזה.",
  },
  "notes.forgottenAgain": "🧹 שכחתי את זה.",
  "notes.confirmForgetAll":
    "⚠️ זה ימחק את כל מה שאני זוכר עליך: {facts} דברים שזכרתי, {notes} פתקים ואת היסטוריית השיחה שלנו. המשימות, התזכורות, הרשימות והיומן נשארים. אי אפשר לבטל את זה. ענו כן כדי למחוק.",
  "notes.forgotAll": "🧹 בוצע. מחקתי את כל מה שזכרתי עליך: דברים שזכרתי, פתקים והיסטוריית השיחה.",
} as const satisfies Translation<typeof NOTES_EN>;
