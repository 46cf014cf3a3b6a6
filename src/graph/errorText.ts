import { t, type Language } from "../messages/index.js";
import { CalendarRequestError } from "../services/calendar/calendarRequestError.js";
import { refusalText } from "../services/calendar/replies.js";
import { GmailRequestError } from "../services/gmail/gmailService.js";
import { failureText } from "../services/gmail/replies.js";
import { GoogleConnectionLostError } from "../services/google/types.js";
import { NoteValidationError } from "../services/secondBrain/secondBrainService.js";
import type { CapabilityName } from "../types/index.js";
import { WhatsAppApiError } from "../utils/errors.js";
import { TimeQuestionAbandoned } from "./plan/timeAnswer.js";

/** Where an error was caught: what only that place knows about the words for it. */
export interface FailureSite {
  /** The capability whose step failed: lost Google access is told as the calendar's or Gmail's. */
  capability?: CapabilityName;
  /** The failed Gmail request was a send: a timeout may still have sent it. */
  sending?: boolean;
  /** The words for a failure no error explains: "llmFailed" where the step was the LLM's (default: "internalError"). */
  unexplained?: "internalError" | "llmFailed";
}

/**
 * What the user reads about an error, in their language: the one place an error becomes words.
 * Errors the user can act on say what happened (lost Google access, a refused calendar or Gmail
 * request, an invalid note, a time question left unanswered, a file over the size limit); any
 * other error is Memo's own failure, and never shows its message.
 */
export function userTextOf(error: unknown, language: Language, site: FailureSite = {}): string {
  if (error instanceof GoogleConnectionLostError) {
    if (site.capability === "calendar") return t(language, "calendar.googleLost");
    if (site.capability === "gmail") return t(language, "gmail.googleLost");
  }
  if (error instanceof CalendarRequestError) return refusalText(error, language);
  if (error instanceof GmailRequestError) return failureText(language, error.reason, site.sending);
  if (error instanceof NoteValidationError) return t(language, "notes.tooLong");
  if (error instanceof TimeQuestionAbandoned) return t(language, "tooManyInvalid");
  if (error instanceof WhatsAppApiError && error.kind === "too_large") {
    // Every too_large error carries its limit (the constructor's type requires it).
    return t(language, "mediaTooLarge", { megabytes: Math.round((error.maxBytes ?? 0) / 1024 / 1024) });
  }
  return t(language, site.unexplained ?? "internalError");
}
