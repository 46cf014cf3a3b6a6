/** Canonical HITL types (spec 001 §5). */

type HITLKind = "clarification" | "disambiguation" | "confirmation" | "approval";
export type HITLExpectedInput = "yes_no" | "single_choice" | "multi_choice" | "free_text";
type HITLSource = "planner" | "entity_resolution" | "resolver" | "policy";
type HITLReason =
  | "intent_unclear"
  | "missing_fields"
  | "high_risk"
  | "needs_approval"
  | "disambiguation"
  | "resolver_clarify"
  | "policy_confirmation"
  /** Approve / edit / cancel before an irreversible action (sending email). */
  | "policy_approval"
  /** The user chose "edit": what to change, in their words. */
  | "approval_edit";

/** Where the graph goes once the answer is valid. */
type HITLReturnTo =
  | { node: "planner"; mode: "replan" }
  | { node: "resolver_router"; mode: "continue" }
  | { node: "entity_resolution"; mode: "apply_selection" };

/** A machine-controlled option: the id is what a button tap sends back. */
export interface HITLOption {
  id: string;
  label: string;
}

/** The one question the graph is waiting on: a request, made concrete by hitl_gate. */
export interface PendingHITL extends HITLRequest {
  hitlId: string;
  language: "he" | "en";
  /** Epoch milliseconds. */
  createdAt: number;
  /** Epoch milliseconds. */
  expiresAt: number;
}

/** What the graph hands to the caller when it pauses. */
export interface HITLInterruptPayload {
  hitlId: string;
  kind: HITLKind;
  /** The text to send, with an error prefix when re-asking after an invalid answer. */
  question: string;
  /**
   * The question as Memo sends it, its options numbered (renderQuestion): what LangGraph Studio
   * shows of the interrupt. Absent in questions stored before it was added.
   */
  description?: string;
  options: HITLOption[];
  expectedInput: HITLExpectedInput;
  language: "he" | "en";
  createdAt: number;
  expiresAt: number;
  /** 0 when first asked, then 1, 2… after invalid answers. */
  attempt: number;
  /** Why it is asked (PendingHITL.reason); absent in questions stored before it was added. */
  reason?: HITLReason;
  /** Any words answer it (a question read in code: PendingHITL.freeTextAllowed). */
  freeTextAllowed?: boolean;
}

/**
 * What the caller resumes the graph with: the user's text, or the id of a tapped option (hitl_gate
 * also takes a plain string as the text: LangGraph Studio's resume box).
 */
export interface HITLAnswer {
  text: string;
  optionId?: string;
}

/** A validated answer, kept in `hitlResults[hitlId]`. */
export interface HITLResult {
  hitlId: string;
  kind: HITLKind;
  reason: HITLReason;
  returnTo: HITLReturnTo;
  stepId?: string;
  /** The question as Memo asked it (absent in answers kept before it was recorded). */
  question?: string;
  /** The user's raw reply. */
  raw: string;
  /** yes_no → "yes" | "no"; single/multi choice → option ids; free_text → the text. */
  value: string | string[];
  /** Epoch milliseconds. */
  answeredAt: number;
}

/** A request from a node to ask the user something; the HITL gate turns it into a PendingHITL. */
export interface HITLRequest {
  kind: HITLKind;
  source: HITLSource;
  reason: HITLReason;
  question: string;
  options: HITLOption[];
  expectedInput: HITLExpectedInput;
  returnTo: HITLReturnTo;
  stepId?: string;
  /**
   * Any reply is an answer, besides the options offered ("5 in the morning or the afternoon?"
   * takes "3pm" too), and "cancel" leaves the question. Set by questions that code reads (D10).
   */
  freeTextAllowed?: boolean;
}

/** Milliseconds a pending question stays open (5 minutes, spec 001). */
export const HITL_TTL_MS = 5 * 60 * 1000;
/** Below this planner confidence, Memo asks instead of acting (spec 003). */
export const CONFIDENCE_THRESHOLD = 0.7;
/** Invalid answers to one question before Memo gives up on it. */
export const MAX_HITL_ATTEMPTS = 3;
/** Clarification rounds in one turn before Memo asks the user to rephrase from scratch. */
export const MAX_HITL_ROUNDS = 3;
