/**
 * A forwarded message or a long pasted text kept as a note when the user says "save it" (issue 37),
 * with the same offer of what it proposes as a document's. The text is someone else's words (D14):
 * stored and offered back, never obeyed.
 */
import type { DocumentContext, DocumentOffer, ExtractedDocument } from "../../types/document.js";
import type { ConversationMessage } from "../../types/conversation.js";
import type { LLMUsage } from "../../types/llm.js";
import type { User } from "../../types/user.js";
import type { DocumentOffers } from "./offers.js";
import { isSaveTextCommand } from "../../nlu/saveTextCommand.js";
import { imagesOf, type UndoSettings } from "../undo/undoJournal.js";

/** A user message longer than this (characters) that was not a command is a pasted text to save. */
const PASTED_MIN_CHARS = 400;
/** A saved text's title is its first line, cut to this many characters. */
const TITLE_CHARS = 60;

/** Where a document's text is stored as a note with its chunks (DocumentService.store). */
interface DocumentStore {
  /** `operationId`: a retried turn stores the text once. */
  store(
    phone: string,
    extracted: ExtractedDocument,
    options?: { operationId?: string },
  ): Promise<DocumentContext>;
}

/** Whether a user message is one "save it" keeps: forwarded, or a long pasted text, not a document. */
function savable(message: ConversationMessage): { text: string; source: "forwarded" | "pasted" } | null {
  if (message.metadata?.documentContext) return null;
  if (message.metadata?.forwarded) return { text: message.content, source: "forwarded" };
  return message.content.length > PASTED_MIN_CHARS ? { text: message.content, source: "pasted" } : null;
}

/**
 * The text "save it" refers to: the message it quotes (when forwarded or a long pasted text), else
 * the user's message just before it, when it was forwarded or a long pasted text Memo did not act on
 * (`actedAfter`: whether Memo carried out something since that time, a request it read as such).
 * "nothing" when it points at nothing to save (a second "save it", a quoted message that is no such
 * text); null when it is no "save it" of a text at all.
 */
export function textToSave(
  messages: readonly ConversationMessage[],
  /** The message saying "save it", when the window already holds it (it is then skipped). */
  current: string,
  options: { quoted?: string; actedAfter?: (timestamp: number) => boolean } = {},
): { text: string; source: "forwarded" | "pasted" } | "nothing" | null {
  const users = messages.filter((m) => m.role === "user");
  if (options.quoted) {
    const quoted = users.find((m) => m.whatsappMessageId === options.quoted);
    return (quoted && savable(quoted)) ?? "nothing";
  }
  const last = users.at(-1);
  const before = last && last.content === current && !last.metadata?.forwarded ? users.at(-2) : last;
  if (!before) return null;
  // "save it" again right after a "save it": that text is kept already.
  if (isSaveTextCommand(before.content)) return "nothing";
  const found = savable(before);
  if (found?.source === "pasted" && options.actedAfter?.(before.timestamp)) return null;
  return found;
}

/** The first line of a text, cut at a word, as its title. */
function titleOf(text: string): string {
  const line = text.trim().split("\n")[0]!.trim();
  if (line.length <= TITLE_CHARS) return line;
  const cut = line.slice(0, TITLE_CHARS);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(" "), TITLE_CHARS / 2))}…`;
}

/** Keeps a text as a document note and makes its offer. */
export class SavedTexts {
  constructor(
    private readonly store: DocumentStore,
    private readonly offers: Pick<DocumentOffers, "offerWithUsage">,
    /** Where the stored note is journaled, so "undo" takes it back (default: not journaled). */
    private readonly undo?: UndoSettings,
  ) {}

  async save(input: {
    phone: string;
    user: User;
    language: "he" | "en";
    text: string;
    source: "forwarded" | "pasted";
    now: number;
    /** Whether the offer may use the model (false: the user's daily budget is spent). */
    withModel: boolean;
    /** The turn's id: a re-run of the turn stores the text once. */
    operationId: string;
    /** The turn, for undo (one message's changes are one undo). */
    turnId: string;
  }): Promise<{
    document: DocumentContext;
    offer: { text: string; offer: DocumentOffer } | null;
    usage: LLMUsage | null;
  }> {
    const document = await this.store.store(
      input.phone,
      {
        source: input.source,
        fileName: null,
        mimeType: "text/plain",
        title: titleOf(input.text),
        pages: [input.text],
      },
      { operationId: input.operationId },
    );
    if (this.undo) {
      // Journaled as a note's creation, as the second brain does: undo deletes its head note, and
      // with it (the foreign keys cascade) the document and its chunks.
      const { journal, windowMs } = this.undo;
      const head = await journal.copy(input.phone, [
        { table: "notes", column: "id", values: [document.noteId] },
      ]);
      await journal.record(input.phone, {
        operationId: input.operationId,
        turnId: input.turnId,
        description: { kind: "note", text: document.title, action: "create" },
        images: imagesOf([], head),
        now: input.now,
        windowMs,
      });
    }
    const { made, usage } = await this.offers.offerWithUsage(
      {
        user: input.user,
        language: input.language,
        document,
        pages: [input.text],
        now: input.now,
      },
      input.withModel,
    );
    return { document, offer: made, usage };
  }
}
