import type { ConversationMessage, HITLResult } from "../types/index.js";

/**
 * A message's words with what Memo added to them (reply_context's notes), each note on its own
 * line as "[added by Memo: …]", so a model never takes it for the user's words (D14).
 */
export function withAddedContext(words: string, added: readonly string[] | undefined): string {
  if (!added?.length) return words;
  return `${words}\n${added.map((note) => `[added by Memo: ${note}]`).join("\n")}`;
}

/**
 * The window before the current message as models read it, one "role: words" entry a message,
 * with what Memo added to a user message marked. "forget that…" and its reply repeat what was
 * forgotten: never shown to a model.
 */
export function recentConversation(messages: readonly ConversationMessage[]): string[] {
  return messages
    .slice(0, -1)
    .filter((m) => !m.metadata?.memoryCommand)
    .map(
      (m) =>
        `${m.role}${m.metadata?.forwarded ? " (forwarded: someone else's words)" : ""}: ${withAddedContext(m.content, m.metadata?.addedContext)}`,
    );
}

/** A question Memo asked this turn and the user's answer, as two lines ("Memo: …", "User: …"). */
export function askedAndAnswered(result: HITLResult): string {
  return `${result.question ? `Memo: ${result.question}\n` : ""}User: ${result.raw}`;
}
