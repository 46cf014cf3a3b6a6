import { assertNever, declares } from "../../../contracts/contract.js";
import {
  secondBrainContract,
  type FactView,
  type NoteView,
  type SecondBrainData,
} from "../../../contracts/secondBrain.js";
import type { EpisodeKind } from "../../../db/repositories/episodeRepository.js";
import { t } from "../../../messages/index.js";
import { quoteOf } from "../../../services/secondBrain/replies.js";
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

/** A fact's label: its kind, faded when archived, and when it held ("since the week of 16 Nov 2026"). */
function factLabel(f: FactView, language: Language): string {
  const kind = TYPE_LABELS[language][f.type] ?? f.type;
  // Archived by consolidation: still kept, so still shown and erasable.
  const parts = [f.status === "archived" ? `${kind}, ${t(language, "notes.faded")}` : kind];
  if (f.since !== undefined && f.until !== undefined)
    parts.push(t(language, "notes.sinceUntil", { since: f.since, until: f.until }));
  else if (f.since !== undefined) parts.push(t(language, "notes.since", { when: f.since }));
  else if (f.until !== undefined) parts.push(t(language, "notes.until", { when: f.until }));
  return parts.join(", ");
}

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
      // A document's delete cannot be undone (its file and chunks go with it): no undo hint.
      if (data.documents?.length) {
        // The notes come first, the documents' head notes last (one each).
        const plain = data.notes.slice(0, Math.max(0, data.notes.length - data.documents.length));
        const lines = data.documents.map((title) => t(language, "documents.deleted", { title }));
        if (plain.length === 1) lines.unshift(t(language, "notes.deleted", { quote: plain[0]!.quote }));
        else if (plain.length > 1) lines.unshift(t(language, "notes.deletedMany", { count: plain.length }));
        return lines.join("\n");
      }
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
    case "documents": {
      if (data.total === 0) return t(language, "documents.listEmpty");
      const more = data.total - data.documents.length;
      const line = (d: (typeof data.documents)[number], i: number) => {
        const pages = d.pages !== undefined ? `, ${t(language, "documents.pages", { count: d.pages })}` : "";
        return `${i + 1}. ${d.title} (${d.date}${pages})`;
      };
      return [
        t(language, "documents.listHeading", { total: String(data.total) }),
        data.documents.map(line).join("\n"),
        ...(more > 0 ? [t(language, "documents.listMore", { more: String(more) })] : []),
        t(language, "documents.listHint"),
      ].join("\n");
    }
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
    case "memories": {
      if (data.facts.length === 0) {
        return data.hasSummary
          ? `${t(language, "notes.memoriesNone")}\n${t(language, "notes.memoriesSummary")}`
          : t(language, "notes.memoriesNone");
      }
      // Numbered in the order listed ("forget 2"): what holds now first, then what changed.
      const current = data.facts.filter((f) => f.until === undefined);
      const ended = data.facts.filter((f) => f.until !== undefined);
      const line = (f: FactView, i: number) => `${i + 1}. ${f.content} _(${factLabel(f, language)})_`;
      return [
        t(language, "notes.memoriesHeading"),
        current.map(line).join("\n"),
        ...(data.history
          ? ended.length > 0
            ? [
                t(language, "notes.changedHeading"),
                ended.map((f, i) => line(f, current.length + i)).join("\n"),
              ]
            : [t(language, "notes.changedNone")]
          : []),
        ...(data.hasSummary ? [t(language, "notes.memoriesSummary")] : []),
        t(language, "notes.memoriesHint"),
        ...(data.changed && !data.history ? [t(language, "notes.changesHint")] : []),
      ]
        .filter((part) => part !== "")
        .join("\n");
    }
    case "recalled": {
      const period = data.period;
      const found = [
        ...data.episodes.map((e) =>
          t(language, `notes.episode.${e.kind as EpisodeKind}`, { when: e.when, title: e.title }),
        ),
        ...data.facts.map((f) => `${f.content} _(${factLabel(f, language)})_`),
        ...data.chunks.map((c) => `${c.when}: ${quoteOf(c.summary, 300)}`),
      ];
      if (found.length === 0)
        return period
          ? t(language, "notes.recalledNoneDuring", { period })
          : t(language, "notes.recalledNone");
      return [
        period
          ? t(language, "notes.recalledHeadingDuring", { period })
          : t(language, "notes.recalledHeading"),
        ...found.map((line, i) => `${i + 1}. ${line}`),
      ].join("\n");
    }
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
