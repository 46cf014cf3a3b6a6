import { t } from "../../messages/index.js";
import { withUndoHint } from "../undo/replies.js";
import type { ResponseTemplate } from "../../types/capability.js";

type Language = "he" | "en";

/** The longest quote of a note shown in a reply. */
const QUOTE_CHARS = 120;

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
interface FactView {
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
        ? `${t(language, "notes.stored", { quote: data.note.quote })}\n${t(language, "notes.timeHint")}`
        : t(language, "notes.stored", { quote: data.note.quote });
    case "updated":
      return t(language, "notes.updated", { quote: data.note.quote });
    case "deleted":
      if (data.notes.length === 0) return t(language, "notes.deletedAgain");
      return withUndoHint(
        data.notes.length === 1
          ? t(language, "notes.deleted", { quote: data.notes[0]!.quote })
          : t(language, "notes.deletedMany", { count: data.notes.length }),
        language,
      );
    case "found":
      if (data.notes.length === 0) return t(language, "notes.foundNone", { query: data.query });
      return data.answer
        ? `${data.answer}\n\n${t(language, "notes.sources")}\n${numberedQuotes(data.notes)}`
        : `${t(language, "notes.foundHeading")}\n${numberedQuotes(data.notes)}`;
    case "list": {
      if (data.total === 0) return t(language, "notes.listEmpty");
      const more = data.total - data.notes.length;
      return [
        t(language, "notes.listHeading", { total: String(data.total) }),
        numberedQuotes(data.notes),
        ...(more > 0 ? [t(language, "notes.listMore", { more: String(more) })] : []),
      ].join("\n");
    }
    case "summary":
      if (data.notes.length === 0) return t(language, "notes.foundNone", { query: data.query ?? "" });
      return `${t(language, "notes.summaryHeading")}\n${data.text}\n\n${t(language, "notes.sources")}\n${numberedQuotes(data.notes)}`;
    case "memories":
      if (data.facts.length === 0) {
        return data.hasSummary
          ? `${t(language, "notes.memoriesNone")}\n${t(language, "notes.memoriesSummary")}`
          : t(language, "notes.memoriesNone");
      }
      return [
        t(language, "notes.memoriesHeading"),
        data.facts
          .map((f, i) => {
            const label = TYPE_LABELS[language][f.type] ?? f.type;
            // Archived by consolidation: still kept, so still shown and erasable.
            const shown = f.status === "archived" ? `${label}, ${t(language, "notes.faded")}` : label;
            return `${i + 1}. ${f.content} _(${shown})_`;
          })
          .join("\n"),
        ...(data.hasSummary ? [t(language, "notes.memoriesSummary")] : []),
        t(language, "notes.memoriesHint"),
      ].join("\n");
    case "forgotten":
      if (data.facts.length === 0) return t(language, "notes.forgottenAgain");
      return [
        t(language, "notes.forgotten", { facts: data.facts.map((f) => `“${f}”`).join(", ") }),
        ...(data.notes > 0 ? [t(language, "notes.forgottenNotes", { count: data.notes })] : []),
      ].join(" ");
    case "forgotAll":
      return t(language, "notes.forgotAll");
  }
};
