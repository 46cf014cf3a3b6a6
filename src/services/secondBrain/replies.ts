import { fillTemplate } from "../../messages/index.js";
import { withUndoHint } from "../undo/replies.js";
import type { ResponseTemplate } from "../../types/capability.js";

type Language = "he" | "en";

/** Every fixed sentence of the second brain (notes and remembered facts), in Hebrew and English. */
const SECOND_BRAIN_MESSAGES = {
  en: {
    askContent: "What should I note?",
    askNewContent: "What should the note say now?",
    tooLong: "That's too long for one note (at most 4,000 characters). Could you split it?",
    whichNote: "Which note do you mean?",
    entity: "notes",
    entityMemory: "things I remember",
    notFound: "I couldn't find a note matching “{query}”.",
    notFoundAny: "I couldn't find that note.",
    noSuchNumber: "There's no number {n} in the last notes I showed you.",
    stored: "📝 Noted: “{quote}”",
    confirmDeleteNote: "Delete the note “{quote}”? Reply yes to delete it.",
    confirmUpdateNote: "Change the note “{quote}”?",
    confirmForget: "Forget that “{quote}”?",
    timeHint: '(I keep it as a note. To be reminded, say "remind me …".)',
    forgetNote:
      "I don't keep that among the things I remember, but one of your notes says it:\n“{quote}”\nDelete that note? Reply yes to delete it.",
    updated: "✏️ Note updated: “{quote}”",
    deleted: "🗑️ Deleted the note “{quote}”",
    deletedMany: "🗑️ Deleted {count} notes.",
    deletedAgain: "🗑️ The note is deleted.",
    foundHeading: "🔎 From your notes:",
    foundNone: "🔎 Nothing in your notes about “{query}”.",
    listHeading: "🗂️ Your notes ({total}):",
    listMore: "…and {more} more. Say “search notes for …” to find one.",
    listEmpty: '🗂️ You have no notes yet. Say "note: …" and I\'ll keep it.',
    summaryHeading: "🧾 What your notes say:",
    sources: "From these notes:",
    deleteHint: 'Say "delete note 2" to remove one.',
    confirmDeleteMany: "Delete these {count} notes?\n{names}\nReply yes to delete them.",
    // Long-term memory.
    memoriesHeading: "🧠 What I remember about you:",
    memoriesNone:
      "🧠 I don't have anything remembered about you yet. Tell me things like \"I prefer morning meetings\" and I'll keep them in mind.",
    memoriesSummary: "I also keep a short summary of our earlier conversations.",
    memoriesHint: 'Say "forget that …" or "forget 2" to make me forget something, or "forget everything".',
    faded: "faded",
    forgetNotFound:
      'I don\'t have anything remembered about “{query}”. Say "what do you remember about me?" to see what I keep.',
    whichMemory: "Which of these should I forget?",
    forgotten: "🧹 Forgotten: {facts}.",
    forgottenNotes: "I also deleted {count} note(s) that came from it.",
    forgottenAgain: "🧹 Done, I've forgotten it.",
    confirmForgetAll:
      "⚠️ This erases everything I remember about you: {facts} remembered things, {notes} notes and our conversation history. Your tasks, reminders, lists and calendar stay. It can't be undone. Reply yes to erase.",
    forgotAll:
      "🧹 Done. I've erased my memory of you: remembered things, notes and our conversation history.",
  },
  he: {
    askContent: "מה לרשום?",
    askNewContent: "מה הפתק צריך להגיד עכשיו?",
    tooLong: "זה ארוך מדי לפתק אחד (עד 4,000 תווים). אפשר לחלק אותו?",
    whichNote: "לאיזה פתק התכוונת?",
    entity: "פתקים",
    entityMemory: "דברים שאני זוכר",
    notFound: "לא מצאתי פתק שמתאים ל„{query}”.",
    notFoundAny: "לא מצאתי את הפתק הזה.",
    noSuchNumber: "אין מספר {n} בפתקים האחרונים שהראיתי לך.",
    stored: "📝 רשמתי: „{quote}”",
    confirmDeleteNote: "למחוק את הפתק „{quote}”? ענה כן כדי למחוק.",
    confirmUpdateNote: "לשנות את הפתק „{quote}”?",
    confirmForget: "לשכוח ש„{quote}”?",
    timeHint: "(שמרתי את זה כפתק. כדי לקבל תזכורת, כתוב „תזכיר לי …”.)",
    forgetNote:
      "זה לא בין הדברים שאני זוכר, אבל אחד הפתקים שלך אומר את זה:\n„{quote}”\nלמחוק את הפתק? ענה כן כדי למחוק.",
    updated: "✏️ הפתק עודכן: „{quote}”",
    deleted: "🗑️ מחקתי את הפתק „{quote}”",
    deletedMany: "🗑️ מחקתי {count} פתקים.",
    deletedAgain: "🗑️ הפתק נמחק.",
    foundHeading: "🔎 מהפתקים שלך:",
    foundNone: "🔎 אין בפתקים שלך כלום על „{query}”.",
    listHeading: "🗂️ הפתקים שלך ({total}):",
    listMore: "…ועוד {more}. אפשר לכתוב „חפש בפתקים …” כדי למצוא פתק.",
    listEmpty: "🗂️ אין לך עדיין פתקים. כתוב „פתק: …” ואשמור אותו.",
    summaryHeading: "🧾 מה כתוב בפתקים שלך:",
    sources: "מהפתקים האלה:",
    deleteHint: "אפשר לכתוב „מחק פתק 2” כדי למחוק.",
    confirmDeleteMany: "למחוק את {count} הפתקים האלה?\n{names}\nענה כן כדי למחוק.",
    memoriesHeading: "🧠 מה שאני זוכר עליך:",
    memoriesNone: "🧠 עדיין אין לי משהו שמור עליך. ספר לי דברים כמו „אני מעדיף פגישות בבוקר” ואזכור אותם.",
    memoriesSummary: "אני שומר גם סיכום קצר של השיחות הקודמות שלנו.",
    memoriesHint: "כתוב „תשכח ש…” או „תשכח את 2” כדי שאשכח משהו, או „תשכח הכל”.",
    faded: "דהוי",
    forgetNotFound: "אין לי משהו שמור על „{query}”. כתוב „מה אתה זוכר עליי?” כדי לראות מה שמור.",
    whichMemory: "מה מאלה לשכוח?",
    forgotten: "🧹 שכחתי: {facts}.",
    forgottenNotes: "מחקתי גם {count} פתקים שנרשמו מזה.",
    forgottenAgain: "🧹 שכחתי את זה.",
    confirmForgetAll:
      "⚠️ זה ימחק את כל מה שאני זוכר עליך: {facts} דברים שזכרתי, {notes} פתקים ואת היסטוריית השיחה שלנו. המשימות, התזכורות, הרשימות והיומן נשארים. אי אפשר לבטל את זה. ענה כן כדי למחוק.",
    forgotAll: "🧹 בוצע. מחקתי את כל מה שזכרתי עליך: דברים שזכרתי, פתקים והיסטוריית השיחה.",
  },
} as const;

export type SecondBrainMessageKey = keyof (typeof SECOND_BRAIN_MESSAGES)["en"];

/** A fixed sentence of the second brain, with `{name}` placeholders filled. */
export function st(
  language: Language,
  key: SecondBrainMessageKey,
  vars: Record<string, string> = {},
): string {
  return fillTemplate(SECOND_BRAIN_MESSAGES[language][key], vars);
}

/** The longest quote of a note shown in a reply. */
export const QUOTE_CHARS = 120;

/** A note's words for a reply: one line, at most QUOTE_CHARS characters, cut at a word. */
export function quoteOf(content: string, max = QUOTE_CHARS): string {
  const line = content.replace(/\s+/g, " ").trim();
  if (line.length <= max) return line;
  const cut = line.slice(0, max - 1);
  const space = cut.lastIndexOf(" ");
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** A note as replies show it. */
export interface NoteView {
  id: string;
  quote: string;
  /** The day it was written or last changed, in the user's zone and language ("3 Nov"). */
  date: string;
}

/** A remembered fact as replies show it. */
export interface FactView {
  id: string;
  type: string;
  content: string;
  status?: string;
}

/** What the second-brain executor hands the template. */
export type SecondBrainData =
  | { kind: "stored"; note: NoteView; namesTime?: boolean }
  | { kind: "updated"; note: NoteView }
  | { kind: "deleted"; notes: NoteView[] }
  | { kind: "found"; query: string; notes: NoteView[]; answer?: string }
  | { kind: "list"; notes: NoteView[]; total: number }
  | { kind: "summary"; query?: string; notes: NoteView[]; text: string }
  | { kind: "memories"; facts: FactView[]; hasSummary: boolean }
  | { kind: "forgotten"; facts: string[]; notes: number }
  | { kind: "forgotAll" };

/** Numbered quotes with their dates: "1. “wifi: abc123” (3 Nov)". */
function numberedQuotes(notes: NoteView[]): string {
  return notes.map((n, i) => `${i + 1}. “${n.quote}” (${n.date})`).join("\n");
}

const TYPE_LABELS: Record<Language, Record<string, string>> = {
  en: {
    preference: "prefers",
    fact: "fact",
    decision: "decided",
    goal: "goal",
    constraint: "must",
    entity: "about",
  },
  he: {
    preference: "העדפה",
    fact: "עובדה",
    decision: "החלטה",
    goal: "מטרה",
    constraint: "אילוץ",
    entity: "פרט",
  },
};

/** The second brain's replies, all by template: every answer that uses notes quotes them. */
export const secondBrainTemplate: ResponseTemplate = (result, language) => {
  const data = result.rawData as SecondBrainData | undefined;
  if (!data || typeof data !== "object" || !("kind" in data)) return null;
  switch (data.kind) {
    case "stored":
      return data.namesTime
        ? `${st(language, "stored", { quote: data.note.quote })}\n${st(language, "timeHint")}`
        : st(language, "stored", { quote: data.note.quote });
    case "updated":
      return st(language, "updated", { quote: data.note.quote });
    case "deleted":
      if (data.notes.length === 0) return st(language, "deletedAgain");
      return withUndoHint(
        data.notes.length === 1
          ? st(language, "deleted", { quote: data.notes[0]!.quote })
          : st(language, "deletedMany", { count: String(data.notes.length) }),
        language,
      );
    case "found":
      if (data.notes.length === 0) return st(language, "foundNone", { query: data.query });
      return data.answer
        ? `${data.answer}\n\n${st(language, "sources")}\n${numberedQuotes(data.notes)}`
        : `${st(language, "foundHeading")}\n${numberedQuotes(data.notes)}`;
    case "list": {
      if (data.total === 0) return st(language, "listEmpty");
      const more = data.total - data.notes.length;
      return [
        st(language, "listHeading", { total: String(data.total) }),
        numberedQuotes(data.notes),
        ...(more > 0 ? [st(language, "listMore", { more: String(more) })] : []),
      ].join("\n");
    }
    case "summary":
      if (data.notes.length === 0) return st(language, "foundNone", { query: data.query ?? "" });
      return `${st(language, "summaryHeading")}\n${data.text}\n\n${st(language, "sources")}\n${numberedQuotes(data.notes)}`;
    case "memories":
      if (data.facts.length === 0) {
        return data.hasSummary
          ? `${st(language, "memoriesNone")}\n${st(language, "memoriesSummary")}`
          : st(language, "memoriesNone");
      }
      return [
        st(language, "memoriesHeading"),
        data.facts
          .map((f, i) => {
            const label = TYPE_LABELS[language][f.type] ?? f.type;
            // Archived by consolidation: still kept, so still shown and erasable.
            const shown = f.status === "archived" ? `${label}, ${st(language, "faded")}` : label;
            return `${i + 1}. ${f.content} _(${shown})_`;
          })
          .join("\n"),
        ...(data.hasSummary ? [st(language, "memoriesSummary")] : []),
        st(language, "memoriesHint"),
      ].join("\n");
    case "forgotten":
      if (data.facts.length === 0) return st(language, "forgottenAgain");
      return [
        st(language, "forgotten", { facts: data.facts.map((f) => `“${f}”`).join(", ") }),
        ...(data.notes > 0 ? [st(language, "forgottenNotes", { count: String(data.notes) })] : []),
      ].join(" ");
    case "forgotAll":
      return st(language, "forgotAll");
  }
};
