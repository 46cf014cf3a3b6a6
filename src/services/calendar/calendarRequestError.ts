import { MemoError } from "../../utils/errors.js";

/**
 * A request the provider refused because of what was asked (not found, bad range): the user can fix
 * it; or "unavailable": the calendar did not answer (an outage, a timeout), the user can try again.
 */
export class CalendarRequestError extends MemoError {
  constructor(
    readonly code: "not_found" | "invalid" | "unavailable",
    message: string,
  ) {
    super(message, { code });
  }
}
