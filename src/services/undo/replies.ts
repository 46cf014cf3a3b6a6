import { t, type MessageKey, type PluralKey } from "../../messages/index.js";
import type { LaterChange, PendingUndo, UndoDescription, UndoResult } from "./undoJournal.js";

type Language = "he" | "en";

/** "the task “Buy milk”", "3 notes" / "המשימה „לקנות חלב”", "3 פתקים". */
function whatOf(description: UndoDescription, language: Language): string {
  if (description.text !== undefined)
    return t(language, `undo.what.${description.kind}` as MessageKey, { text: description.text });
  return t(language, `undo.what.${description.kind}s` as PluralKey, { count: description.count ?? 0 });
}

/** What a change did, as the question before an undo names it: "creating the list “camping” (3 items)". */
function changeOf(description: UndoDescription, language: Language): string {
  const what = whatOf(description, language);
  const { list, action } = description;
  const say = (key: MessageKey) => t(language, key, { what, list: list ?? "" });
  let change: string;
  if (action === "clear" && list) change = say("undo.change.clear");
  else if (action === "add" && list) change = say("undo.change.add");
  else if ((action === "tick" || action === "untick") && list) change = say(`undo.change.${action}`);
  else if (action === "delete" && list && description.kind === "item") change = say("undo.change.remove");
  else if (action === "create" || action === "add") change = say("undo.change.create");
  else if (action === "delete" || action === "clear") change = say("undo.change.delete");
  else if (action === "complete") change = say("undo.change.complete");
  else change = say("undo.change.change");
  const items = action === "clear" ? (description.count ?? 1) : description.items;
  return items ? t(language, "undo.change.items", { change, count: items }) : change;
}

/** What someone else did since, in the past tense: "cleared *shopping*", "changed the item “milk”". */
function didOf(description: UndoDescription, language: Language): string {
  const { list, action, kind, text } = description;
  if (action === "clear" && list) return t(language, "undo.did.clear", { list });
  if (kind === "list" && action === "delete" && text !== undefined)
    return t(language, "undo.did.deleteList", { list: text });
  if (list) return t(language, "undo.did.list", { list });
  return t(language, "undo.did.other", { what: whatOf(description, language) });
}

/** Why an undo put nothing back: who changed what since, or that it changed. */
function changedReply(description: UndoDescription, by: LaterChange | null, language: Language): string {
  const what = whatOf(description, language);
  if (by?.name)
    return t(language, "undo.changedBy", { who: by.name, did: didOf(by.description, language), what });
  return t(language, by ? "undo.changedBySomeone" : "undo.changedSince", { what });
}

/**
 * The question asked before an undo when messages came between the change and it: "Your last
 * change was creating the list “camping” (3 items), 2 messages ago. Undo it?". `messagesAgo`: how
 * many of the user's messages ago the change was made (null: more than the conversation shows).
 */
export function undoQuestion(pending: PendingUndo, messagesAgo: number | null, language: Language): string {
  const change = changeOf(pending.description, language);
  return messagesAgo === null
    ? t(language, "undo.askEarlier", { change })
    : t(language, "undo.ask", { change, count: messagesAgo });
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
    case "changed":
      return changedReply(result.description, result.by, language);
    case "unshared":
      return result.list
        ? t(language, "undo.unshared", { list: result.list })
        : t(language, "undo.unsharedList");
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
