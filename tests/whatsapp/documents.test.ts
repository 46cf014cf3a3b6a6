// Documents through the webhook, the inbox and the Graph API, without a model: stored as a note
// with searchable chunks, found with their page, listed, forgotten with everything they hold.
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { DocumentOffers } from "../../src/services/documents/offers.js";
import type { DocumentOfferMaker, DocumentPageReader } from "../../src/types/document.js";
import {
  createWhatsAppHarness,
  textMessage,
  deliverAndWait,
  documentMessage,
  type WaMessage,
  type WhatsAppHarness,
} from "../support/whatsappHarness.js";

const PHONE = "972501110037";
const PDF = "application/pdf";
const DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";

const fixture = (name: string) => readFileSync(new URL(`../fixtures/documents/${name}`, import.meta.url));

let h: WhatsAppHarness;
afterEach(async () => {
  await h?.close();
});

async function harness(
  language: "he" | "en",
  documentOffers?: DocumentOfferMaker,
  pageReader?: DocumentPageReader,
) {
  h = await createWhatsAppHarness({
    ...(documentOffers ? { documentOffers } : {}),
    ...(pageReader ? { pageReader } : {}),
  });
  await h.knownUser(PHONE, language);
  return h;
}

const documentOf = (id: string, mimeType: string, filename: string, caption?: string) =>
  documentMessage(PHONE, h.clock.now(), { id, mimeType, filename, ...(caption ? { caption } : {}) });

const say = (message: WaMessage, n: number) => deliverAndWait(h, message, n);

const sendText = (text: string, n: number) => say(textMessage(PHONE, text, h.clock.now() + 1_000), n);

async function counts() {
  const { rows } = await h.db.pool.query<{ documents: number; notes: number; chunks: number }>(
    `SELECT (SELECT count(*)::int FROM documents WHERE user_phone = $1) AS documents,
            (SELECT count(*)::int FROM notes WHERE user_phone = $1) AS notes,
            (SELECT count(*)::int FROM notes WHERE user_phone = $1 AND chunk_index IS NOT NULL) AS chunks`,
    [PHONE],
  );
  return rows[0]!;
}

describe("documents", () => {
  it("a Hebrew school letter (PDF): saved, found by search with its page, listed, and forgotten with its chunks", async () => {
    await harness("he");
    h.graphApi.addMedia("media-doc-1", fixture("schoolLetterHe.pdf"), PDF);
    const saved = await say(documentOf("media-doc-1", PDF, "schoolLetterHe.pdf"), 1);
    expect(saved).toContain("שמרתי את „מכתב להורים - טיול שכבה” (עמוד אחד)");
    const stored = await counts();
    expect(stored.documents).toBe(1);
    expect(stored.chunks).toBeGreaterThan(0);
    const { rows } = await h.db.pool.query<{ content: string; page: number }>(
      "SELECT content, page FROM notes WHERE user_phone = $1 AND chunk_index IS NOT NULL ORDER BY chunk_index",
      [PHONE],
    );
    // Reading order rebuilt: the chunks hold the logical sentences, each on its page.
    expect(rows.map((r) => r.content).join(" ")).toContain("ביום חמישי, 11 במרץ 2027");
    expect(rows.every((r) => r.page === 1)).toBe(true);

    const found = await sendText("חפש בפתקים מוזיאון", 2);
    expect(found).toContain("📄 מכתב להורים - טיול שכבה, עמ׳ 1:");
    expect(found).toContain("מוזיאון המדע");

    // "my notes" shows the document once (its head note), not its chunks.
    const notes = await sendText("הפתקים שלי", 3);
    expect(notes).toContain("הפתקים שלך (1)");

    const listed = await sendText("המסמכים שלי", 4);
    expect(listed).toContain("המסמכים שלך (1)");
    expect(listed).toContain("1. מכתב להורים - טיול שכבה (");
    expect(listed).toContain("עמוד אחד");

    // Found by words: asked first, saying it cannot be undone.
    const asked = await sendText("תשכח את המכתב מבית הספר", 5);
    expect(asked).toContain("אי אפשר לבטל");
    expect((await counts()).documents).toBe(1);
    const forgotten = await sendText("כן", 6);
    expect(forgotten).toContain("מחקתי את המסמך „מכתב להורים - טיול שכבה”");
    expect(await counts()).toEqual({ documents: 0, notes: 0, chunks: 0 });
    expect(await sendText("המסמכים שלי", 7)).toContain("אין לך עדיין מסמכים");
  });

  it("English: a text file and a Word file; search finds the right one; forgetting by words and by number", async () => {
    await harness("en");
    h.graphApi.addMedia("media-txt", fixture("dentist.txt"), "text/plain");
    h.graphApi.addMedia("media-docx", fixture("schoolLetterHe.docx"), DOCX);
    expect(await say(documentOf("media-txt", "text/plain", "dentist.txt"), 1)).toContain(
      'Saved "Dentist appointment for Noa" to your notes.',
    );
    expect(await say(documentOf("media-docx", DOCX, "schoolLetterHe.docx"), 2)).toContain(
      'Saved "בית ספר יסודי "אורנים", רמת גן" to your notes.',
    );
    expect(await sendText("search notes referral", 3)).toContain(
      "📄 Dentist appointment for Noa: Please bring the referral letter.",
    );
    expect(await sendText("search notes museum", 4)).toContain("Nothing in your notes");
    expect(await sendText("search notes מוזיאון", 5)).toContain("מוזיאון המדע");

    const listed = await sendText("my documents", 6);
    expect(listed).toContain("Your documents (2):");
    expect(listed).toMatch(/1\. בית ספר יסודי "אורנים", רמת גן \(/);
    expect(listed).toMatch(/2\. Dentist appointment for Noa \(/);

    expect(await sendText("forget the dentist letter", 7)).toContain("This can't be undone");
    expect((await counts()).documents).toBe(2);
    expect(await sendText("yes", 8)).toContain('Deleted the document "Dentist appointment for Noa"');
    expect((await counts()).documents).toBe(1);
    // "delete note 1" after "my notes" is a note; "delete document 1" must name a document.
    await sendText("note: the gate code is 4412", 9);
    await sendText("my notes", 10);
    expect(await sendText("delete document 1", 11)).toContain("couldn't find a document");
    expect((await counts()).notes).toBeGreaterThan(1);
    await sendText("my documents", 12);
    expect(await sendText("delete document 1", 13)).toContain("Deleted the document");
    expect(await counts()).toEqual({ documents: 0, notes: 1, chunks: 0 });
  });

  it("'delete the reminder to pay the invoice' deletes the reminder, never the invoice document", async () => {
    await harness("en");
    h.graphApi.addMedia(
      "media-invoice",
      Buffer.from("Invoice from Green Leaf\nTotal: 120 NIS"),
      "text/plain",
    );
    await say(documentOf("media-invoice", "text/plain", "invoice.txt"), 1);
    await sendText("remind me tomorrow at 9am to pay the invoice", 2);
    const tasks = () =>
      h.db.pool.query("SELECT id FROM tasks WHERE user_phone = $1", [PHONE]).then((r) => r.rows.length);
    expect(await tasks()).toBe(1);
    const reply = await sendText("delete the reminder to pay the invoice", 3);
    expect(reply).not.toContain("document");
    expect(await tasks()).toBe(0);
    expect((await counts()).documents).toBe(1);
  });

  it("a very long text is kept cut short, and the reply says so; 'delete note 1' on its head after 'my notes' deletes it", async () => {
    await harness("en");
    h.graphApi.addMedia(
      "media-long",
      Buffer.from(`Minutes\n${"the committee met again. ".repeat(14_000)}`),
      "text/plain",
    );
    const saved = await say(documentOf("media-long", "text/plain", "minutes.txt"), 1);
    expect(saved).toContain('Saved "Minutes"');
    expect(saved).toContain("cut short");
    expect((await counts()).chunks).toBeLessThanOrEqual(400);
    await sendText("my notes", 2);
    expect(await sendText("delete note 1", 3)).toContain('Deleted the document "Minutes"');
    expect(await counts()).toEqual({ documents: 0, notes: 0, chunks: 0 });
  });

  it("a scan read in part keeps its real page count and says how many pages were read", async () => {
    let reads = 0;
    const reader: DocumentPageReader = {
      read: () => {
        reads++;
        return Promise.resolve({ pages: ["Invoice 2027-114 from Green Leaf. Total 120 NIS."] });
      },
    };
    await harness("en", undefined, reader);
    h.graphApi.addMedia("media-scan-2", fixture("scanTwoPages.pdf"), PDF);
    const message = documentOf("media-scan-2", PDF, "scan.pdf");
    const saved = await say(message, 1);
    expect(saved).toContain("(2 pages)");
    expect(saved).toContain("I read the first 1 of its 2 pages.");
    const { rows } = await h.db.pool.query<{ page_count: number }>(
      "SELECT page_count FROM documents WHERE user_phone = $1",
      [PHONE],
    );
    expect(rows).toEqual([{ page_count: 2 }]);
    expect(reads).toBe(1);
  });

  it("a retried document message finds its document stored: not downloaded, read or stored again", async () => {
    let reads = 0;
    const reader: DocumentPageReader = {
      read: () => {
        reads++;
        return Promise.resolve({ pages: ["Invoice 2027-114 from Green Leaf. Total 120 NIS."] });
      },
    };
    let offered = 0;
    const offers: DocumentOfferMaker = {
      offer: () => {
        // The first attempt fails after the document was stored: the turn is retried.
        if (++offered === 1) return Promise.reject(new Error("offer failed"));
        return Promise.resolve(null);
      },
    };
    await harness("en", offers, reader);
    h.graphApi.addMedia("media-scan-3", fixture("scanTwoPages.pdf"), PDF);
    const saved = await say(documentOf("media-scan-3", PDF, "scan.pdf"), 1);
    expect(saved).toContain("Saved");
    expect(offered).toBe(2);
    expect(reads).toBe(1);
    expect((await counts()).documents).toBe(1);
  });

  it("the data-deletion command removes documents too", async () => {
    await harness("en");
    h.graphApi.addMedia("media-doc-2", fixture("schoolLetterHe.pdf"), PDF);
    await say(documentOf("media-doc-2", PDF, "letter.pdf"), 1);
    expect((await counts()).documents).toBe(1);
    await sendText("forget everything", 2);
    await sendText("yes", 3);
    expect(await counts()).toEqual({ documents: 0, notes: 0, chunks: 0 });
  });

  it("an unsupported type, an oversized file and a scan without text: a clear reply, nothing stored", async () => {
    await harness("en");
    h.graphApi.addMedia("media-zip", Buffer.from("PK\x03\x04"), "application/zip");
    h.graphApi.addMedia("media-big", Buffer.from("%PDF-1.4"), PDF, { fileSize: 11 * 1024 * 1024 });
    h.graphApi.addMedia("media-scan", fixture("invoiceScanned.pdf"), PDF);
    expect(await say(documentOf("media-zip", "application/zip", "photos.zip"), 1)).toContain(
      "I can read PDF, Word (.docx) and text files",
    );
    expect(await say(documentOf("media-big", PDF, "huge.pdf"), 2)).toMatch(/too (?:large|big)/i);
    expect(await say(documentOf("media-scan", PDF, "invoiceScanned.pdf"), 3)).toContain(
      "I couldn't read the text of that file",
    );
    expect(await counts()).toEqual({ documents: 0, notes: 0, chunks: 0 });
  });

  it("without a caption, the offer of what it proposes follows the saved line; the window keeps the document and the offer", async () => {
    const asked: { title: string; pages: number; language: string }[] = [];
    const offers: DocumentOfferMaker = {
      offer: ({ document, pages, language }) => {
        asked.push({ title: document.title, pages: pages.length, language });
        return Promise.resolve({
          text: "Add to your calendar or reminders:\n1. Science museum trip, Thu 11 Mar 08:15\nReply with the numbers, 'all' or 'none'.",
          offer: {
            documentId: document.documentId,
            title: document.title,
            items: [
              {
                kind: "event",
                title: "Science museum trip",
                timeWords: "ביום חמישי, 11 במרץ 2027",
                start: "2027-03-11T08:15",
                sentence: "ביום חמישי, 11 במרץ 2027, תצא שכבת ד' לטיול",
                page: 1,
              },
            ],
            offeredAt: h.clock.now(),
          },
        });
      },
    };
    await harness("en", offers);
    h.graphApi.addMedia("media-doc-3", fixture("schoolLetterHe.pdf"), PDF);
    const reply = await say(documentOf("media-doc-3", PDF, "letter.pdf"), 1);
    expect(reply).toContain("(1 page) to your notes.");
    expect(reply).toContain("1. Science museum trip, Thu 11 Mar 08:15");
    expect(asked).toEqual([{ title: "מכתב להורים - טיול שכבה", pages: 1, language: "en" }]);
    await h.memo.memory.load(PHONE);
    const [said, answered] = h.memo.memory.getRecentMessages(PHONE).slice(-2);
    expect(said?.metadata?.documentContext).toMatchObject({
      title: "מכתב להורים - טיול שכבה",
      pageCount: 1,
    });
    // The user's message is a fixed marker with the file name, never the document's own words (D14).
    expect(said?.content).toBe("📄 letter.pdf");
    expect(answered?.metadata?.documentOffer?.items[0]).toMatchObject({ start: "2027-03-11T08:15" });
  });

  it("with a caption: stored, then the caption is the request, answered after the saved line", async () => {
    await harness("en");
    h.graphApi.addMedia("media-doc-4", fixture("dentist.txt"), "text/plain");
    await h.deliver(documentOf("media-doc-4", "text/plain", "dentist.txt", "my documents"));
    await h.graphApi.waitForSent(2);
    await h.idle();
    const [saved, answer] = h.graphApi.textsTo(PHONE);
    expect(saved).toContain('Saved "Dentist appointment for Noa" to your notes.');
    expect(answer).toContain("Your documents (1):");
    expect(answer).toContain("1. Dentist appointment for Noa (");
  });

  it("the same file sent again is not stored twice nor offered again: the reply says where it is", async () => {
    await harness("en", new DocumentOffers(null));
    h.graphApi.addMedia("media-a", fixture("dentist.txt"), "text/plain");
    h.graphApi.addMedia("media-b", fixture("dentist.txt"), "text/plain");
    const first = await say(documentOf("media-a", "text/plain", "dentist.txt"), 1);
    expect(first).toContain('Saved "Dentist appointment for Noa" to your notes.');
    const again = await say(documentOf("media-b", "text/plain", "noa.txt"), 2);
    expect(again).toContain(
      'You sent me this file before: it\'s in your notes as "Dentist appointment for Noa".',
    );
    expect(again).not.toContain("Tue 09/03 16:40");
    expect((await counts()).documents).toBe(1);
  });

  it("a file sent as text that holds a zero byte is unreadable, never stored as noise", async () => {
    await harness("he");
    h.graphApi.addMedia("media-bin", Buffer.from("%PDF-1.4\u0000\u0001binary"), "text/plain");
    expect(await say(documentOf("media-bin", "text/plain", "orders.txt"), 1)).toContain("לא הצלחתי לקרוא");
    expect(await counts()).toEqual({ documents: 0, notes: 0, chunks: 0 });
  });

  it("a caption is answered, then the document's offer follows", async () => {
    await harness("en", new DocumentOffers(null));
    h.graphApi.addMedia("media-doc-5", fixture("dentist.txt"), "text/plain");
    await h.deliver(documentOf("media-doc-5", "text/plain", "dentist.txt", "my documents"));
    await h.graphApi.waitForSent(3);
    await h.idle();
    const [saved, answer, offer] = h.graphApi.textsTo(PHONE);
    expect(saved).toContain('Saved "Dentist appointment for Noa" to your notes.');
    expect(answer).toContain("Your documents (1):");
    expect(offer).toContain("Tue 09/03 16:40");
    expect(offer).toContain("Reply with");
  });
});
