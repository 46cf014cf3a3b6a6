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

/**
 * The text "save it" refers to: the user's message just before it, when it was forwarded or a long
 * pasted text (and not already a document); null when there is none.
 */
export function textToSave(
  messages: readonly ConversationMessage[],
  /** The message saying "save it", when the window already holds it (it is then skipped). */
  current: string,
): { text: string; source: "forwarded" | "pasted" } | null {
  const users = messages.filter((m) => m.role === "user");
  const last = users.at(-1);
  const before = last && last.content === current && !last.metadata?.forwarded ? users.at(-2) : last;
  if (!before || before.metadata?.documentContext) return null;
  if (before.metadata?.forwarded) return { text: before.content, source: "forwarded" };
  return before.content.length > PASTED_MIN_CHARS ? { text: before.content, source: "pasted" } : null;
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
    private readonly offers: DocumentOffers,
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
