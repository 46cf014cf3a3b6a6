import { assertNever, declares } from "../../../contracts/contract.js";
import { secondBrainContract, type NoteView, type SecondBrainData } from "../../../contracts/secondBrain.js";
import { t } from "../../../messages/index.js";
import { withUndoHint } from "../../../services/undo/replies.js";
import type { ResponseTemplate } from "../../../types/capability.js";

type Language = "he" | "en";

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

/** The words of one result: exhaustive over the contract's results, so a new kind fails `tsc` here. */
function render(data: SecondBrainData, language: Language): string {
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
    default:
      return assertNever(data);
  }
}

/** The second brain's replies, all by template: every answer that uses notes quotes them. */
export const secondBrainTemplate: ResponseTemplate = (result, language) => {
  const given: unknown = result.rawData;
  if (!declares(secondBrainContract, result.operation)) return null;
  if (!given || typeof given !== "object" || !("kind" in given)) return null;
  // The formatter hands on what the executor returned for this operation (SecondBrainResults).
  return render(given as SecondBrainData, language);
};
