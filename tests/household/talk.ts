// How the household conversation tests talk to Memo through the webhook: the phones, a message,
// a tap, and what reached someone meanwhile.
import type { SchedulerHarness } from "../support/schedulerHarness.js";
import { textMessage, waId } from "../support/whatsappHarness.js";

export const YOSSI = "972521110001";
export const DANA = "972501234567";
export const RINA = "972541112223";

/** What reaches `phone` while `work` runs (and the turns it started finish). */
export async function received(
  h: SchedulerHarness,
  phone: string,
  work: () => Promise<unknown>,
): Promise<string[]> {
  const before = h.sentTo(phone).length;
  await work();
  await h.idle();
  return h.sentTo(phone).slice(before);
}

/** Sends `text` as `phone` and waits for the turn; returns what reached `phone` meanwhile. */
export const say = (h: SchedulerHarness, phone: string, text: string) =>
  received(h, phone, () => h.deliver(textMessage(phone, text, h.clock.now())));

/** Delivers `message` (its type and body) from `phone`; returns what reached `phone` meanwhile. */
export const from = (h: SchedulerHarness, phone: string, message: Record<string, unknown>) =>
  received(h, phone, () =>
    h.deliver({
      from: phone,
      id: waId(),
      timestamp: String(Math.floor(h.clock.now() / 1000)),
      ...message,
    } as never),
  );

/** A tap on an interactive reply button. */
export const tap = (h: SchedulerHarness, phone: string, id: string, title: string) =>
  from(h, phone, { type: "interactive", interactive: { type: "button_reply", button_reply: { id, title } } });

/** The reply-button ids of the last interactive message to `phone`. */
export function buttonsOfLast(h: SchedulerHarness, phone: string): string[] {
  const last = h.graphApi.sent.filter((m) => m.to.replace(/\D/g, "") === phone).at(-1);
  const body = last?.body as { interactive?: { action: { buttons: { reply: { id: string } }[] } } };
  return body.interactive?.action.buttons.map((b) => b.reply.id) ?? [];
}
