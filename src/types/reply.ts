import type { HITLExpectedInput, HITLOption } from "./hitl.js";

/** What Memo answers, and whether it now waits for a reply. */
export interface MemoReply {
  /** completed: the turn ran; waiting: a question is open; expired: an old question was dropped, then this turn ran; failed: we broke. */
  status: "completed" | "waiting" | "expired" | "failed";
  /** The text to send (a question includes its numbered options). */
  text: string;
  /** A question's own words, without the numbered options (for buttons and lists). */
  question?: string;
  /** Options for buttons or a list, when a question is open. */
  options: HITLOption[];
  expectedInput?: HITLExpectedInput;
  hitlId?: string;
  traceId: string;
  /** The turn did something a latest action records (created, changed, removed…), not only answered. */
  acted?: boolean;
  /**
   * The `localId` of the assistant message this turn stored in the conversation window (the reply,
   * or the question asked); absent when none was stored. The sender sets the WhatsApp id on it.
   */
  storedMessageId?: string;
}
