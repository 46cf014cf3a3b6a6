import { decideMatch } from "../../utils/fuzzy.js";
import type { HITLAnswer, HITLInterruptPayload, PendingHITL } from "../../types/index.js";

/** What reading an answer needs of its question. */
type Answerable = Pick<PendingHITL, "expectedInput" | "options" | "freeTextAllowed"> & {
  reason?: PendingHITL["reason"];
};

const YES = new Set([
  "yes",
  "y",
  "yeah",
  "yep",
  "yup",
  "sure",
  "ok",
  "okay",
  "go ahead",
  "do it",
  "confirm",
  "approve",
  "👍",
  "כן",
  "כן בבקשה",
  "בטח",
  "בטוח",
  "אוקיי",
  "אוקי",
  "סבבה",
  "יאללה",
  "תמשיך",
  "נכון",
  "מאשר",
  "מאשרת",
  "אישור",
]);
const NO = new Set([
  "no",
  "n",
  "nope",
  "nah",
  "cancel",
  "stop",
  "don't",
  "dont",
  "👎",
  "לא",
  "לא תודה",
  "בטל",
  "ביטול",
  "עזוב",
  "אל תעשה",
  "לא לא",
  "never mind",
  "nevermind",
  "forget it",
  "לא משנה",
]);

/**
 * Whether an answer drops its question ("cancel", "never mind", "ביטול"; also "no" to a "which
 * one?"): the user must always be able to leave a question, not only by giving three wrong answers.
 */
export function cancelsChoice(
  pending: Pick<PendingHITL, "expectedInput" | "reason" | "freeTextAllowed">,
  answer: { text: string; optionId?: string },
): boolean {
  if (answer.optionId !== undefined) return false;
  // A question answered in words ("when should it be?", one read in code) takes any words, but
  // "cancel" still leaves it rather than becoming the answer ("no" may be an answer).
  // (The edit prompt of an approval reads "cancel" itself: "OK, I won't send it.")
  if (
    pending.freeTextAllowed ||
    (pending.expectedInput === "free_text" && pending.reason !== "approval_edit")
  )
    return CANCEL.has(normalizeReply(answer.text));
  if (pending.expectedInput !== "single_choice" && pending.expectedInput !== "multi_choice") return false;
  // An approval question has its own cancel option.
  if (pending.reason === "policy_approval") return false;
  return NO.has(normalizeReply(answer.text));
}
/** Words that leave a question whose answer may be any words. */
const CANCEL = new Set([
  "cancel",
  "undo",
  "stop",
  "never mind",
  "nevermind",
  "forget it",
  "בטל",
  "ביטול",
  "עזוב",
  "לא משנה",
]);

/** Words that pick an approval question's options (approve / edit / cancel) besides their labels. */
const APPROVAL_WORDS: Record<string, string> = {
  send: "approve",
  "send it": "approve",
  שלח: "approve",
  תשלח: "approve",
  "שלח את זה": "approve",
  change: "edit",
  ערוך: "edit",
  תערוך: "edit",
  לערוך: "edit",
  תשנה: "edit",
  שנה: "edit",
};
const ALL = new Set(["all", "all of them", "both", "כולם", "הכל", "את כולם", "שניהם"]);

/** Lower case, no surrounding punctuation or spaces, inner spaces folded. */
function normalizeReply(text: string): string {
  return text
    .toLowerCase()
    .replace(/\s+/g, " ")
    .replace(/^[\s.,!?;:"'()\-־]+|[\s.,!?;:"'()\-־]+$/g, "");
}

/** Whether a message looks like an answer to a question (a stale reply when nothing is pending). */
export function looksLikeAnswer(text: string): boolean {
  const reply = normalizeReply(text);
  return YES.has(reply) || NO.has(reply) || /^\d{1,2}$/.test(reply);
}

/** A valid answer: "yes" | "no" for yes/no questions, option ids for choices, the text for free text. */
export type Validation = { ok: true; value: string | string[] } | { ok: false };

/** The option a text names: its number (1-based), its id, its label, or words that fit one label only. */
function optionFor(pending: Answerable, text: string): string | undefined {
  if (/^\d{1,2}$/.test(text)) return pending.options[Number(text) - 1]?.id;
  const exact = pending.options.find((o) => o.id.toLowerCase() === text || normalizeReply(o.label) === text);
  // A question read in code takes any words: only an exact label picks a button ("4 אחה״צ" is 16:00).
  if (exact || pending.expectedInput === "yes_no" || pending.freeTextAllowed) return exact?.id;
  // "the bank" for "Call the bank (tomorrow at 09:00)": a clear fuzzy match, never a guess between two.
  const decision = decideMatch(text, pending.options, (o) => o.label);
  return decision.kind === "one" ? decision.match.item.id : undefined;
}

/** A negation anywhere in a reply: "do not approve" must never read as approval. */
const NEGATION = /(?:^|\s)(?:not|no|don'?t|dont|never|do not|לא|אל|בלי|אין)(?:\s|$)|n't(?:\s|$)/u;

/**
 * The answer to an approve / edit / cancel question: a button, the option's number or exact label,
 * or a listed word. Never a fuzzy match (approving sends email), and a reply with a negation in it
 * is taken as approval of nothing: "don't approve" is asked again, a plain "no" cancels.
 */
function approvalChoice(pending: Answerable, text: string): Validation {
  const has = (id: string) => pending.options.some((o) => o.id === id);
  const word = YES.has(text) ? "approve" : NO.has(text) ? "cancel" : APPROVAL_WORDS[text];
  if (word && has(word)) return { ok: true, value: [word] };
  if (NEGATION.test(text)) return { ok: false };
  if (/^\d{1,2}$/.test(text)) {
    const id = pending.options[Number(text) - 1]?.id;
    return id ? { ok: true, value: [id] } : { ok: false };
  }
  const exact = pending.options.find((o) => o.id === text || normalizeReply(o.label) === text);
  return exact ? { ok: true, value: [exact.id] } : { ok: false };
}

/**
 * Checks a reply against what the question expects (spec 001 §5): Hebrew and English yes/no words,
 * option numbers, ids or labels, several numbers for multi-choice, any text for free text.
 */
export function validateAnswer(pending: Answerable, answer: { text: string; optionId?: string }): Validation {
  if (answer.optionId !== undefined) {
    const option = pending.options.find((o) => o.id === answer.optionId);
    if (!option) return { ok: false };
    if (pending.expectedInput === "yes_no") {
      return option.id === "yes" || option.id === "no" ? { ok: true, value: option.id } : { ok: false };
    }
    return { ok: true, value: [option.id] };
  }
  const text = normalizeReply(answer.text);
  if (!text) return { ok: false };
  switch (pending.expectedInput) {
    case "free_text":
      return { ok: true, value: answer.text.trim() };
    case "yes_no": {
      if (YES.has(text)) return { ok: true, value: "yes" };
      if (NO.has(text)) return { ok: true, value: "no" };
      const option = optionFor(pending, text);
      return option === "yes" || option === "no" ? { ok: true, value: option } : { ok: false };
    }
    case "single_choice": {
      if (pending.reason === "policy_approval") return approvalChoice(pending, text);
      const option = optionFor(pending, text);
      if (option) return { ok: true, value: [option] };
      return pending.freeTextAllowed ? { ok: true, value: answer.text.trim() } : { ok: false };
    }
    case "multi_choice": {
      if (ALL.has(text)) return { ok: true, value: pending.options.map((o) => o.id) };
      const ids = text
        .split(/\s*(?:,|\band\b|\s)\s*/)
        .map((part) => part.replace(/^ו-?/, ""))
        .filter(Boolean)
        .map((part) => optionFor(pending, part));
      if (ids.length === 0 || ids.some((id) => id === undefined)) return { ok: false };
      return { ok: true, value: [...new Set(ids as string[])] };
    }
  }
}

export type { HITLAnswer };

/**
 * Whether a message sent while a question is open is a new command rather than its answer ("my
 * tasks", "add task pay rent", "in 10 minutes remind me to call mom" while Memo asks when): the
 * question is left and the command runs, instead of the command being read as a bad answer (and
 * lost) or, worse, its time taken as the answer. Only for questions whose answers are not
 * commands: yes/no, choices and questions read in code (`isCommand` says what a command is);
 * never for a button tap, a valid choice, or a free-text question a resolver asked.
 */
export function leavesQuestion(
  pending: Pick<HITLInterruptPayload, "expectedInput" | "options" | "reason" | "freeTextAllowed">,
  answer: HITLAnswer,
  isCommand: (text: string) => boolean,
): boolean {
  if (answer.optionId !== undefined) return false;
  if (pending.expectedInput === "free_text" && !pending.freeTextAllowed) return false;
  if (!isCommand(answer.text)) return false;
  if (pending.freeTextAllowed) return true;
  return !validateAnswer(pending, answer).ok;
}
