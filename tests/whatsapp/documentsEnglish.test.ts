// An English school letter (Chromium's print, two pages) through the webhook, the inbox and the Graph
// API, without a model, for a user in London: saved with its offer (the trip with its times, the fee
// by its day), found by search and by a question with its page, listed, and "1 and 2" adds the event
// and the reminder at London's wall times; "forget the school letter" deletes it.
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

const PHONE = "447700900437";
const PDF = "application/pdf";

let h: WhatsAppHarness;
afterEach(async () => {
  await h?.close();
});

const say = (message: WaMessage, n: number) => deliverAndWait(h, message, n);

const sendText = (text: string, n: number) => say(textMessage(PHONE, text, h.clock.now() + 1_000), n);

const london = (date: Date | null) => date?.toLocaleString("sv-SE", { timeZone: "Europe/London" });

describe("an English school letter through WhatsApp", () => {
  it("PDF → saved with its offer; search, a question and 'my documents' find it with its page; '1 and 2' adds both; forgotten", async () => {
    h = await createWhatsAppHarness({
      clock: fakeClock("2027-03-01T09:00:00Z"),
      documentOffers: new DocumentOffers(null),
    });
    await h.memo.users.getOrCreate(PHONE, { timeZone: "Europe/London", language: "en" });
    h.graphApi.addMedia(
      "media-letter-en",
      readFileSync(new URL("../fixtures/documents/schoolLetterEn.pdf", import.meta.url)),
      PDF,
    );
    const document = documentMessage(PHONE, h.clock.now(), {
      id: "media-letter-en",
      mimeType: PDF,
      filename: "schoolLetterEn.pdf",
    });
    const offered = await say(document, 1);
    expect(offered).toContain(
      '📄 Saved "Oakwood Primary School - Year 4 trip to the Science Museum" (2 pages) to your notes.',
    );
    expect(offered).toMatch(
      /^1\. [^\n]*Year 4 will go on a trip to the Science Museum[^\n]*, Thu 11\/03 08:15–14:30$/mu,
    );
    expect(offered).toContain("2. ⏰ Please pay the trip fee of £12 on the school website, by Sun 07/03");
    // The parents' evening "next month" is asked about, never dated.
    expect(offered).not.toMatch(/parents' evening[^\n]*\d\d\/\d\d/u);

    const added = await sendText("1 and 2", 2);
    expect(added).toMatch(/📅 Added to your calendar: [^\n]*Science Museum[^\n]* — Thu 11\/03 08:15–14:30/u);
    expect(added).toContain(
      "⏰ I'll remind you Sun 07/03 at 09:00: *Please pay the trip fee of £12 on the school website*",
    );
    const events = await h.db.pool.query<{ start_at: Date; end_at: Date }>(
      "SELECT start_at, end_at FROM calendar_events WHERE user_phone = $1",
      [PHONE],
    );
    expect(events.rows.map((e) => [london(e.start_at), london(e.end_at)])).toEqual([
      ["2027-03-11 08:15:00", "2027-03-11 14:30:00"],
    ]);
    const tasks = await h.db.pool.query<{ due_at: Date }>("SELECT due_at FROM tasks WHERE user_phone = $1", [
      PHONE,
    ]);
    expect(tasks.rows.map((t) => london(t.due_at))).toEqual(["2027-03-07 09:00:00"]);

    // Search finds the letter with its page: the trip is on page 1, the library on page 2.
    const found = await sendText("search notes museum", 3);
    expect(found).toContain(
      "📄 Oakwood Primary School - Year 4 trip to the Science Museum, p. 1: On Thursday 11 March 2027, Year 4 will go on a trip to the Science Museum in London.",
    );
    // The trip's page comes first (the title names the museum, so page 2 may follow it).
    expect(found.split("\n")[1]).toContain(", p. 1: On Thursday 11 March 2027");
    expect(await sendText("search notes library", 4)).toContain(
      "📄 Oakwood Primary School - Year 4 trip to the Science Museum, p. 2: The school library will be open",
    );

    const asked = await sendText("what did the school letter say about the trip?", 5);
    expect(asked.split("\n")[1]).toContain(
      "1. “📄 Oakwood Primary School - Year 4 trip to the Science Museum, p. 1: ",
    );
    // The best passage is about the trip (its title names the trip too, so the ranking among the
    // page's passages that speak of it is the search's).
    expect(asked.split("\n")[1]!.split("p. 1: ")[1]).toMatch(/\btrip\b/);

    const listed = await sendText("my documents", 6);
    expect(listed).toContain("Your documents (1):");
    expect(listed).toContain("1. Oakwood Primary School - Year 4 trip to the Science Museum (");
    expect(listed).toContain("2 pages)");

    // Without a model, search matches the words as written: the Hebrew word finds nothing here.
    expect(await sendText("חפש בפתקים מוזיאון", 7)).toContain("אין בפתקים שלך כלום על „מוזיאון”");

    // Found by words: asked first, since it cannot be undone.
    expect(await sendText("forget the school letter", 8)).toContain("This can't be undone.");
    expect(await sendText("yes", 9)).toContain(
      'Deleted the document "Oakwood Primary School - Year 4 trip to the Science Museum"',
    );
    const left = await h.db.pool.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM notes WHERE user_phone = $1",
      [PHONE],
    );
    expect(left.rows[0]!.n).toBe(0);
  });
});
