import { storedMessages, type StoredHistoryRow } from "../../db/repositories/replayRepository.js";
import type { Queryable } from "../../db/transaction.js";
import { WhatsAppMessageSchema } from "../whatsapp/webhookSchema.js";
import { textOf } from "../whatsapp/inboundProcessor.js";

/** One message the user sent, as stored, with what Memo answered then. */
export interface StoredInbound {
  /** WhatsApp's message id (absent for a history message stored without one). */
  id?: string;
  /** When the user sent it. */
  at: Date;
  /** WhatsApp's message type (text, interactive, button, audio, image…), or "history" when only the conversation kept it. */
  type: string;
  /** What it says: the body, a tapped option's title, a voice note's transcript. */
  text: string;
  /** The id of a tapped button or list row. */
  optionId?: string;
  /** The message it replies to. */
  replyTo?: string;
  /** A voice note, replayed from its stored transcript. */
  transcribed?: boolean;
  /** Why it cannot be replayed (an image: its analysis is not stored). */
  skip?: string;
  /** What Memo answered then, and where that was found: what was sent, or the conversation. */
  oldReply: { text: string; from: "sent" | "conversation" } | null;
}

/**
 * The user's messages since `since` (all stored ones without it), oldest first: the inbox's rows
 * (kept for RETENTION_DAYS), then, for older ones, the user's side of the stored conversation.
 * Reactions and messages too old to have been answered are left out.
 */
export async function storedInbound(db: Queryable, phone: string, since?: Date): Promise<StoredInbound[]> {
  const from = since ?? new Date(0);
  const { inbox, history, sent } = await storedMessages(db, phone, from);

  const sentFor = new Map<string, string[]>();
  for (const row of sent) {
    if (row.body === null) continue;
    sentFor.set(row.in_reply_to, [...(sentFor.get(row.in_reply_to) ?? []), row.body]);
  }
  // What Memo said after each user message of the conversation, up to the next one.
  const answeredInConversation = new Map<string, string>();
  const historyById = new Map<string, { row: StoredHistoryRow; answer: string[] }>();
  let current: { row: StoredHistoryRow; answer: string[] } | undefined;
  for (const row of history) {
    if (row.role === "user") {
      current = { row, answer: [] };
      historyById.set(row.id, current);
      if (row.whatsapp_message_id) answeredInConversation.set(row.whatsapp_message_id, row.id);
    } else if (row.role === "assistant" && current) {
      current.answer.push(row.content);
    }
  }
  const oldReply = (waId: string | undefined, historyId?: string): StoredInbound["oldReply"] => {
    const bodies = waId ? sentFor.get(waId) : undefined;
    if (bodies) return { text: bodies.join("\n"), from: "sent" };
    const entry = historyById.get(historyId ?? answeredInConversation.get(waId ?? "") ?? "");
    return entry && entry.answer.length > 0 ? { text: entry.answer.join("\n"), from: "conversation" } : null;
  };
  const transcriptOf = (waId: string) => historyById.get(answeredInConversation.get(waId) ?? "")?.row.content;

  const messages: StoredInbound[] = [];
  for (const row of inbox) {
    const parsed = WhatsAppMessageSchema.safeParse(row.payload);
    const base = { id: row.id, at: row.sent_at, type: row.type, oldReply: oldReply(row.id) };
    if (!parsed.success) {
      messages.push({ ...base, text: "", skip: "its stored body is not a WhatsApp message" });
      continue;
    }
    const message = parsed.data;
    const replyTo = message.context?.id;
    const optionId = message.interactive?.button_reply?.id ?? message.interactive?.list_reply?.id;
    const common = { ...base, ...(replyTo ? { replyTo } : {}), ...(optionId ? { optionId } : {}) };
    if (message.type === "audio") {
      const transcript = transcriptOf(row.id);
      messages.push(
        transcript
          ? { ...common, text: transcript, transcribed: true }
          : { ...common, text: "", skip: "a voice note whose transcript was not stored" },
      );
    } else if (["text", "button", "interactive"].includes(message.type)) {
      const text = textOf(message).trim();
      messages.push(text ? { ...common, text } : { ...common, text, skip: "it has no text" });
    } else {
      messages.push({ ...common, text: textOf(message), skip: `a ${message.type} message (not replayed)` });
    }
  }
  // Messages whose inbox rows are gone (older than the retention) live on in the conversation.
  const inInbox = new Set(inbox.map((r) => r.id));
  for (const { row } of historyById.values()) {
    if (row.created_at < from || (row.whatsapp_message_id && inInbox.has(row.whatsapp_message_id))) continue;
    messages.push({
      ...(row.whatsapp_message_id ? { id: row.whatsapp_message_id } : {}),
      at: row.created_at,
      type: "history",
      text: row.content,
      oldReply: oldReply(row.whatsapp_message_id ?? undefined, row.id),
    });
  }
  return messages.sort((a, b) => a.at.getTime() - b.at.getTime());
}
