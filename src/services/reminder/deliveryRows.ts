import type { Delivery, NewDelivery } from "../../db/repositories/deliveryLedger.js";
import type { ProactiveUser } from "../../db/repositories/schedulerRepository.js";

/*
 * What every claim shares: rows given send slots one per-user gap apart, and rows just inserted
 * handed to delivery as claimed deliveries.
 */

/**
 * Gives each user's messages send slots: the user's next free slot, then one gap apart; a user in
 * `heldUntil` (Shabbat quiet) from that instant on.
 */
export function assignSlots(
  perUser: ReadonlyMap<string, NewDelivery[]>,
  users: ReadonlyMap<string, Pick<ProactiveUser, "nextProactiveAt">>,
  nowMs: number,
  gapMs: number,
  heldUntil: ReadonlyMap<string, number> = new Map(),
): NewDelivery[] {
  const out: NewDelivery[] = [];
  for (const [phone, rows] of perUser) {
    const base = Math.max(nowMs, users.get(phone)?.nextProactiveAt ?? nowMs, heldUntil.get(phone) ?? nowMs);
    rows
      .sort((a, b) => (a.kind === "away" ? -1 : b.kind === "away" ? 1 : a.occurrenceAt - b.occurrenceAt))
      .forEach((row, i) => out.push({ ...row, sendAfter: base + i * gapMs }));
  }
  return out;
}

/** Each user's next free slot after the messages just given slots. */
export function nextSlots(rows: readonly NewDelivery[], gapMs: number): Map<string, number> {
  const slots = new Map<string, number>();
  for (const row of rows) {
    const next = row.sendAfter + gapMs;
    if (next > (slots.get(row.phone) ?? 0)) slots.set(row.phone, next);
  }
  return slots;
}

/** A row this instance just inserted under `token`, as the delivery it is now to send. */
export function asDelivery(row: NewDelivery, token: string): Delivery {
  return {
    key: row.key,
    phone: row.phone,
    kind: row.kind,
    taskId: row.taskId,
    occurrenceAt: row.occurrenceAt,
    content: row.content,
    sendAfter: row.sendAfter,
    claimToken: token,
    attempts: 0,
    status: "sending",
    via: null,
    waMessageId: null,
    error: null,
    sentAt: null,
    templateRetried: false,
  };
}
