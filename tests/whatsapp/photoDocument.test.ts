// A photo of a page becomes a document (issue 37), its caption planned with it; other photos stay images.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { InboxMessage } from "../../src/db/repositories/inboxRepository.js";
import {
  InboundProcessor,
  type InboundProcessorDeps,
} from "../../src/transport/whatsapp/inboundProcessor.js";
import type { DocumentContext, ExtractedDocument } from "../../src/types/document.js";
import type { LLMMessage, LLMNode } from "../../src/types/llm.js";
import { createLogger } from "../../src/utils/logger.js";
import { FakeLLM } from "../support/fakeLLM.js";

const PHONE = "972501110077";
const PHOTO = readFileSync("tests/fixtures/documents/invoicePhoto.jpg");
const INVOICE_TEXT = [
  "Green Leaf Gardening Ltd.",
  "Invoice no. 2027-114 Issued: 1 March 2027",
  "Bill to: Dana Cohen, 12 Herzl St., Haifa",
  "Spring hedge trimming | $240.00",
  "Lawn care, February | $180.00",
  "Total due | $420.00",
  "Payment due by 14 March 2027 by bank transfer to account 123-456789.",
  "Next visit: Tuesday 16 March 2027 at 9:00 am.",
].join("\n");

const INVOICE_ANALYSIS = {
  imageType: "structured",
  description: "An invoice from Green Leaf Gardening.",
  tasks: [],
  events: [{ title: "Next visit", date: "2027-03-16", time: "09:00" }],
  items: [],
  extractedText: INVOICE_TEXT,
};
const SUNSET_ANALYSIS = {
  imageType: "random",
  description: "A sunset over the sea.",
  tasks: [],
  events: [],
  items: [],
  extractedText: "",
};

const systemOf = (messages: LLMMessage[]) =>
  typeof messages[0]?.content === "string" ? messages[0].content : "";
const isAnalysis = (messages: LLMMessage[]) => systemOf(messages).startsWith("You look at one image");
const isReading = (messages: LLMMessage[]) => systemOf(messages).startsWith("You transcribe one image");

/** The processor with fakes around it: what it answered, what the model was asked, what was stored. */
function processor(options: {
  analysis: object;
  reading?: object;
  documents?: boolean;
  mimeType?: string;
  graphReply?: string;
  language?: "he" | "en";
  /** The document a first attempt of this message stored (a retried turn). */
  storedBefore?: DocumentContext;
}) {
  const answered: { said: { text: string; metadata?: Record<string, unknown> } | null; text: unknown }[] = [];
  const graphTurns: { text: string; imageContext: unknown; documentContext?: unknown }[] = [];
  const stored: { phone: string; extracted: ExtractedDocument }[] = [];
  const operations: (string | undefined)[] = [];
  const lookedUp: string[] = [];
  const llm = new FakeLLM((_node: LLMNode, messages: LLMMessage[]) => {
    if (isAnalysis(messages)) return options.analysis;
    if (isReading(messages) && options.reading) return options.reading;
    throw new Error(`unexpected model call: ${systemOf(messages).slice(0, 40)}`);
  });
  const documents = {
    storedBy(_phone: string, operationId: string) {
      lookedUp.push(operationId);
      const before = options.storedBefore;
      return Promise.resolve(before ? { context: before, pages: [before.excerpt] } : null);
    },
    store(
      phone: string,
      extracted: ExtractedDocument,
      stores?: { operationId?: string },
    ): Promise<DocumentContext> {
      stored.push({ phone, extracted });
      operations.push(stores?.operationId);
      return Promise.resolve({
        documentId: "doc-1",
        noteId: "note-1",
        title: extracted.title,
        fileName: extracted.fileName,
        source: extracted.source,
        pageCount: extracted.pages.length,
        excerpt: extracted.pages[0]!.slice(0, 200),
      });
    },
  };
  const user = { phone: PHONE, language: options.language ?? "en", timeZone: "Asia/Jerusalem" };
  const deps = {
    runtime: {
      invokeMemoGraph(
        _phone: string,
        text: string,
        invoke: { imageContext?: unknown; documentContext?: unknown },
      ) {
        graphTurns.push({ text, imageContext: invoke.imageContext, documentContext: invoke.documentContext });
        return Promise.resolve({ status: "completed", text: options.graphReply ?? "ok", options: [] });
      },
    },
    users: { recordInbound: () => Promise.resolve({ user }) },
    outbound: {},
    sender: { markRead: () => undefined, send: () => Promise.resolve() },
    onboarding: {},
    router: {
      route: () => Promise.resolve("graph"),
      answerWithoutGraph(_phone: string, _language: string, said: never, reply: unknown) {
        // A stored document's reply is one message (with its offer in the metadata); an image's is text.
        const text = Array.isArray(reply)
          ? (reply as { text: string }[]).map((m) => m.text).join("\n")
          : reply;
        answered.push({ said, text });
        return Promise.resolve();
      },
    },
    client: {
      downloadMedia: () => Promise.resolve({ data: PHOTO, mimeType: options.mimeType ?? "image/jpeg" }),
    },
    llm,
    transcriber: null,
    ...(options.documents === false ? {} : { documents }),
    logger: createLogger("silent"),
    clock: () => Date.parse("2027-03-02T08:00:00Z"),
  } as unknown as InboundProcessorDeps;
  return { processor: new InboundProcessor(deps), answered, graphTurns, stored, llm, operations, lookedUp };
}

function imageInbox(caption?: string): InboxMessage {
  const at = new Date("2027-03-02T08:00:00Z");
  return {
    waMessageId: "wamid.PHOTO1",
    seq: 1,
    phone: PHONE,
    type: "image",
    sentAt: at,
    receivedAt: at,
    payload: {
      from: PHONE,
      id: "wamid.PHOTO1",
      timestamp: String(at.getTime() / 1000),
      type: "image",
      image: { id: "media-invoice", mime_type: "image/jpeg", ...(caption ? { caption } : {}) },
    },
    contactName: null,
    status: "pending",
    attempts: 1,
    lastError: null,
  };
}

const lease = { confirm: () => Promise.resolve() } as never;

describe("a photo of a page", () => {
  it("is stored under the message's operation id; a retried message reuses it without reading it again", async () => {
    const first = processor({
      analysis: INVOICE_ANALYSIS,
      reading: { isDocument: true, title: "Invoice 2027-114 from Green Leaf", text: INVOICE_TEXT },
    });
    await first.processor.process(imageInbox(), lease);
    expect(first.operations).toEqual(["photo:wamid.PHOTO1"]);

    const retried = processor({
      analysis: INVOICE_ANALYSIS,
      storedBefore: {
        documentId: "doc-1",
        noteId: "note-1",
        title: "Invoice 2027-114 from Green Leaf",
        fileName: null,
        source: "photo",
        pageCount: 1,
        excerpt: INVOICE_TEXT,
      },
    });
    await retried.processor.process(imageInbox(), lease);
    expect(retried.lookedUp).toEqual(["photo:wamid.PHOTO1"]);
    expect(retried.stored).toEqual([]);
    // Only the analysis was asked of the model: the page was not read again.
    expect(retried.llm.calls.filter((call) => isReading(call.messages))).toEqual([]);
    expect(String(retried.answered[0]!.text)).toContain("Invoice 2027-114 from Green Leaf");
  });

  it("without a caption: read whole by the vision model and stored as a one-page document, and the reply says so", async () => {
    const p = processor({
      analysis: INVOICE_ANALYSIS,
      reading: { isDocument: true, title: "Invoice 2027-114 from Green Leaf", text: INVOICE_TEXT },
    });
    await p.processor.process(imageInbox(), lease);

    expect(p.stored).toEqual([
      {
        phone: PHONE,
        extracted: {
          source: "photo",
          fileName: null,
          mimeType: "image/jpeg",
          title: "Invoice 2027-114 from Green Leaf",
          pages: [INVOICE_TEXT],
        },
      },
    ]);
    // The reading got the photo itself.
    const reading = p.llm.calls.find((c) => isReading(c.messages))!;
    expect(JSON.stringify(reading.messages[1])).toContain('"type":"image"');
    expect(p.graphTurns).toEqual([]);
    expect(p.answered).toHaveLength(1);
    expect(p.answered[0]!.text).toContain("saved it as a document: *Invoice 2027-114 from Green Leaf*");
    expect(p.answered[0]!.said!.metadata).toMatchObject({
      documentContext: { documentId: "doc-1", source: "photo", pageCount: 1 },
      imageContext: { imageType: "structured" },
    });
  });

  it("in Hebrew: the reading is asked in the user's language and the reply is Hebrew", async () => {
    const letter = "בית ספר יסודי ״אורנים״, רמת גן\nתאריך: 1 במרץ 2027\nהורים יקרים, שלום רב";
    const p = processor({
      language: "he",
      analysis: { ...INVOICE_ANALYSIS, description: "מכתב מבית הספר.", extractedText: letter.repeat(3) },
      reading: { isDocument: true, title: "מכתב להורים", text: letter },
    });
    await p.processor.process(imageInbox(), lease);
    expect(p.stored[0]!.extracted).toMatchObject({ title: "מכתב להורים", pages: [letter] });
    const reading = p.llm.calls.find((c) => isReading(c.messages))!;
    expect(JSON.stringify(reading.messages[1])).toContain("The user's language: he");
    expect(p.answered[0]!.text).toContain("שמרתי אותו כמסמך: *מכתב להורים*");
  });

  it("with no title from the model, the page's first line is the title", async () => {
    const p = processor({
      analysis: INVOICE_ANALYSIS,
      reading: { isDocument: true, title: " ", text: `\n${INVOICE_TEXT}` },
    });
    await p.processor.process(imageInbox(), lease);
    expect(p.stored[0]!.extracted.title).toBe("Green Leaf Gardening Ltd.");
  });

  it("the reading says it is no document (a chat screenshot full of text): answered as an image, nothing stored", async () => {
    const p = processor({
      analysis: INVOICE_ANALYSIS,
      reading: { isDocument: false, title: "", text: "hi\nhow are you" },
    });
    await p.processor.process(imageInbox(), lease);
    expect(p.stored).toEqual([]);
    expect(p.answered[0]!.text).toContain("📷 An invoice from Green Leaf Gardening.");
    expect(p.answered[0]!.said!.metadata).not.toHaveProperty("documentContext");
  });

  it("without a document store, today's image reply (and no second model call)", async () => {
    const p = processor({ analysis: INVOICE_ANALYSIS, documents: false });
    await p.processor.process(imageInbox(), lease);
    expect(p.llm.calls.filter((c) => isReading(c.messages))).toEqual([]);
    expect(p.answered[0]!.text).toContain("📷 An invoice from Green Leaf Gardening.");
  });

  it("with a caption: the page is stored too, and the caption is planned with the page and the image as data", async () => {
    const p = processor({
      analysis: INVOICE_ANALYSIS,
      reading: { isDocument: true, title: "Invoice 2027-114 from Green Leaf", text: INVOICE_TEXT },
      graphReply: "Reminder set.",
    });
    await p.processor.process(imageInbox("remind me to pay this by Sunday"), lease);
    expect(p.stored).toHaveLength(1);
    expect(p.stored[0]!.extracted).toMatchObject({ source: "photo" });
    expect(p.graphTurns).toHaveLength(1);
    expect(p.graphTurns[0]).toMatchObject({
      text: "remind me to pay this by Sunday",
      imageContext: { imageType: "structured", imageId: "media-invoice" },
      documentContext: { documentId: "doc-1", source: "photo" },
    });
  });

  it("with a caption, an ordinary photo: the caption is planned with the image context; nothing is stored", async () => {
    const p = processor({ analysis: SUNSET_ANALYSIS, graphReply: "ok" });
    await p.processor.process(imageInbox("what's this?"), lease);
    expect(p.stored).toEqual([]);
    expect(p.graphTurns[0]).toMatchObject({ text: "what's this?", imageContext: { imageType: "random" } });
    expect(p.graphTurns[0]!.documentContext).toBeUndefined();
  });
});

describe("an ordinary photo", () => {
  it("is analysed and described as today: no reading, nothing stored", async () => {
    const p = processor({ analysis: SUNSET_ANALYSIS });
    await p.processor.process(imageInbox(), lease);
    expect(p.llm.calls.map((c) => isAnalysis(c.messages))).toEqual([true]);
    expect(p.stored).toEqual([]);
    expect(p.answered[0]!.text).toContain("📷 A sunset over the sea.");
    expect(Object.keys(p.answered[0]!.said!.metadata!)).toEqual(["imageContext"]);
    expect(p.answered[0]!.said!.metadata).toMatchObject({ imageContext: { imageType: "random" } });
  });

  it("a structured photo with little text (a short shopping list) stays an image", async () => {
    const p = processor({
      analysis: { ...INVOICE_ANALYSIS, items: ["milk", "eggs"], extractedText: "milk\neggs" },
    });
    await p.processor.process(imageInbox(), lease);
    expect(p.llm.calls.filter((c) => isReading(c.messages))).toEqual([]);
    expect(p.stored).toEqual([]);
  });
});
