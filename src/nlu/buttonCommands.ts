/**
 * The ids of the reply buttons Memo sends outside a question (a reminder's, an invitation's, the
 * time-zone list's) and the words that answer a reminder without one ("done", "בוצע"): what a tap
 * or a typed word means, read without the LLM. The inbound router sends each to what answers it.
 */

/** Reply-button ids of an invitation: `hh:accept:<invitation id>`, `hh:decline:<invitation id>`. */
export const HOUSEHOLD_BUTTON = { accept: "hh:accept:", decline: "hh:decline:" } as const;
/** Reply-button ids of a reminder: `rem:done:<task id>`, `rem:snooze:<task id>`. */
export const REMINDER_BUTTON = { done: "rem:done:", snooze: "rem:snooze:" } as const;
/** List-row ids of the time-zone question: `tz:<IANA zone>`. */
export const TIME_ZONE_BUTTON = "tz:";

/** What a tapped button of Memo's own asks for. */
export type ButtonCommand =
  | { kind: "reminderDone"; taskId: string }
  | { kind: "reminderSnooze"; taskId: string }
  | { kind: "invitationAccept"; invitationId: string }
  | { kind: "invitationDecline"; invitationId: string }
  | { kind: "timeZone"; zone: string };

/** The command a tapped button's id carries; null for any other id (a question's option) or none. */
export function readButton(optionId: string | undefined): ButtonCommand | null {
  if (!optionId) return null;
  const after = (prefix: string) => optionId.slice(prefix.length);
  if (optionId.startsWith(REMINDER_BUTTON.done))
    return { kind: "reminderDone", taskId: after(REMINDER_BUTTON.done) };
  if (optionId.startsWith(REMINDER_BUTTON.snooze))
    return { kind: "reminderSnooze", taskId: after(REMINDER_BUTTON.snooze) };
  if (optionId.startsWith(HOUSEHOLD_BUTTON.accept))
    return { kind: "invitationAccept", invitationId: after(HOUSEHOLD_BUTTON.accept) };
  if (optionId.startsWith(HOUSEHOLD_BUTTON.decline))
    return { kind: "invitationDecline", invitationId: after(HOUSEHOLD_BUTTON.decline) };
  if (optionId.startsWith(TIME_ZONE_BUTTON)) return { kind: "timeZone", zone: after(TIME_ZONE_BUTTON) };
  return null;
}

/** A message that says only "done" (in English or Hebrew), with a little politeness around it. */
const BARE_DONE =
  /^(?:(?:ok|okay|yes|yep|great|thanks)[\s,!.]*)?(?:done|all done|it'?s done|did it|finished)[\s!.✅👍]*$|^(?:(?:אוקיי|אוקי|כן|תודה)[\s,!.]*)?(?:בוצע|סיימתי|עשיתי|גמרתי|זהו|נעשה)[\s!.✅👍]*$/iu;

/** Whether the message only says "done": the reminder that just rang (or the one it quotes) is. */
export function isBareDone(text: string): boolean {
  return BARE_DONE.test(text.trim());
}
