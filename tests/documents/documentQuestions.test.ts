// Questions about a kept document: answered from its chunks, quoting the document and its page,
// with a model (the answer cites what it read) and without one (the quoted passage is the answer).
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { documentStorage } from "../../src/db/storage.js";
import { DocumentService } from "../../src/services/documents/documentService.js";
import { extractText, type DocumentKind } from "../../src/services/documents/extractText.js";
import { createHarness, PHONE, plan, step, type Harness } from "../support/memoHarness.js";
import { lastUserMessageOf } from "../support/scriptedOpenAI.js";

const LETTER_TITLE = 'מכתב להורים - טיול שכבה';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function harness(language: "he" | "en", options: Parameters<typeof createHarness>[0]) {
  h = await createHarness(options);
  await h.users.getOrCreate(PHONE, { timeZone: "Asia/Jerusalem", language });
  return h;
}

/** Keeps a fixture as the user's document, as the WhatsApp transport does. */
async function keep(made: Harness, name: string, kind: DocumentKind): Promise<void> {
  const data = new Uint8Array(readFileSync(new URL(`../fixtures/documents/${name}`, import.meta.url)));
  const extracted = await extractText(data, kind, { fileName: name, mimeType: null });
  await new DocumentService(documentStorage(made.db.pool)).store(PHONE, extracted, { file: data });
}

describe("questions about a document", () => {
  it("without a model: the passage about the topic, with the document's title and page", async () => {
    const made = await harness("he", { llm: "none", env: { FAST_PATH: "on" } });
    await keep(made, "schoolLetterHe.pdf", "pdf");
    await keep(made, "dentist.txt", "text");
    const trip = await made.say("מה כתוב במכתב מבית הספר על הטיול?");
    expect(trip.text).toContain(`📄 ${LETTER_TITLE}, עמ׳ 1:`);
    expect(trip.text).toContain("לטיול שנתי במוזיאון המדע");
    const referral = await made.say("what did the dentist letter say about the referral?");
    expect(referral.text).toContain("📄 Dentist appointment for Noa: Please bring the referral letter.");
  });

  it("with a model: the answer is written from the chunks, which it reads with title and page", async () => {
    const made = await harness("en", {});
    await keep(made, "schoolLetterHe.pdf", "pdf");
    made.server!.enqueue(plan({ steps: [step("s1", "second-brain", "search_notes")] }), {
      json: { operation: "search", query: "טיול מוזיאון" },
    });
    made.server!.enqueue({ text: "The trip to the science museum is on Thursday 11 March 2027 [1]." });
    const reply = await made.say("what did the school letter say about the trip?");
    expect(reply.text).toContain("The trip to the science museum is on Thursday 11 March 2027 [1].");
    expect(reply.text).toContain(`1. “📄 ${LETTER_TITLE}, p. 1:`);
    expect(lastUserMessageOf(made.server!.requests.at(-1)!)).toContain(
      `<note id="1">\n📄 ${LETTER_TITLE}, p. 1: `,
    );
  });
});
