// The whole path of issue 37's first proof, through the webhook, the inbox and the Graph API, without
// a model: the Hebrew school letter PDF (Chromium's print, lines in visual order) is stored, its
// offer lists the trip with its times and the payment by its day (the meeting "next month" asked
// about, never dated), and "1 ו-2" adds the event and the reminder at the right local times.
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { DocumentOffers } from "../../src/services/documents/offers.js";
import { fakeClock } from "../support/clock.js";
import {
  createWhatsAppHarness,
  textMessage,
  deliverAndWait,
  documentMessage,
  type WaMessage,
  type WhatsAppHarness,
} from "../support/whatsappHarness.js";

const PHONE = "972501110038";
const PDF = "application/pdf";

let h: WhatsAppHarness;
afterEach(async () => {
  await h?.close();
});

const say = (message: WaMessage, n: number) => deliverAndWait(h, message, n);

const jerusalem = (date: Date | null) => date?.toLocaleString("sv-SE", { timeZone: "Asia/Jerusalem" });

describe("a school letter's offer through WhatsApp", () => {
  it("Hebrew PDF → offer → '1 ו-2' adds the trip 08:15–14:30 and the payment reminder", async () => {
    h = await createWhatsAppHarness({
      clock: fakeClock("2027-03-01T08:00:00Z"),
      documentOffers: new DocumentOffers(null),
    });
    await h.knownUser(PHONE, "he");
    h.graphApi.addMedia(
      "media-letter",
      readFileSync(new URL("../fixtures/documents/schoolLetterHe.pdf", import.meta.url)),
      PDF,
    );
    const document = documentMessage(PHONE, h.clock.now(), {
      id: "media-letter",
      mimeType: PDF,
      filename: "schoolLetterHe.pdf",
    });
    const offered = await say(document, 1);
    expect(offered).toContain(
      "1. תצא שכבת ד' לטיול שנתי במוזיאון המדע בירושלים, יום חמישי 11/03 08:15–14:30",
    );
    expect(offered).toContain("2. ⏰ יש לשלם את דמי הטיול");
    expect(offered).toContain("עד יום ראשון 07/03");
    expect(offered).not.toMatch(/אסיפת הורים[^\n]*\d\d\/\d\d/u);

    await say(textMessage(PHONE, "1 ו-2", h.clock.now() + 60_000), 2);
    const events = await h.db.pool.query<{ summary: string; start_at: Date; end_at: Date }>(
      "SELECT summary, start_at, end_at FROM calendar_events WHERE user_phone = $1",
      [PHONE],
    );
    expect(events.rows.map((e) => [jerusalem(e.start_at), jerusalem(e.end_at)])).toEqual([
      ["2027-03-11 08:15:00", "2027-03-11 14:30:00"],
    ]);
    const tasks = await h.db.pool.query<{ text: string; due_at: Date }>(
      "SELECT text, due_at FROM tasks WHERE user_phone = $1",
      [PHONE],
    );
    expect(tasks.rows.map((t) => jerusalem(t.due_at))).toEqual(["2027-03-07 09:00:00"]);
  });
});
