import { t, type MessageKey, type PluralKey } from "../../messages/index.js";
import type { UndoDescription, UndoResult } from "./undoJournal.js";

type Language = "he" | "en";

/** "the task “Buy milk”", "3 notes" / "המשימה „לקנות חלב”", "3 פתקים". */
function whatOf(description: UndoDescription, language: Language): string {
  if (description.text !== undefined)
    return t(language, `undo.what.${description.kind}` as MessageKey, { text: description.text });
  return t(language, `undo.what.${description.kind}s` as PluralKey, { count: description.count ?? 0 });
}

/** The reply to "undo" / "בטל". */
export function undoReply(result: UndoResult, language: Language, windowMs: number): string {
  switch (result.kind) {
    case "nothing":
      return t(language, "undo.nothing");
    case "irreversible":
      return t(language, `undo.cannot.${result.reason}` as MessageKey);
    case "expired":
      return t(language, "undo.expired", {
        what: whatOf(result.description, language),
        minutes: String(Math.round(windowMs / 60_000)),
      });
    case "failed":
      return t(language, "undo.failed", { what: whatOf(result.description, language) });
    case "notQuoted":
      return t(language, "undo.notQuoted");
    case "already":
      return t(language, "undo.already", { what: whatOf(result.description, language) });
    case "ambiguous":
      return t(language, "undo.ambiguous", { what: whatOf(result.description, language) });
    case "restored":
      return [
        // Taking back an addition removes it: said as such, not as "back as it was".
        t(language, result.removed ? "undo.removed" : "undo.done", {
          what: whatOf(result.description, language),
        }),
        ...(result.lateReminders > 0 ? [t(language, "undo.lateReminder")] : []),
        ...(result.notRestored.length > 0
          ? [t(language, "undo.notRestored", { names: result.notRestored.map((n) => `“${n}”`).join(", ") })]
          : []),
      ].join("\n");
  }
}

/** A deletion's reply with the way back: "… Reply *undo* to bring it back." */
export function withUndoHint(text: string, language: Language): string {
  return `${text}\n${t(language, "undo.hint")}`;
}
