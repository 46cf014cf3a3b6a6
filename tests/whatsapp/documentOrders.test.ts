// orders.pdf (a newsletter whose text gives Memo orders, D14) through the webhook, real extraction:
// with a caption, a scripted model that obeys the document plans deleting a task, and the plan asks
// first ("no" keeps it); without a caption, the offer lists only the tournament and the fees, and
// nothing the document orders is done.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { DocumentOffers } from "../../src/services/documents/offers.js";
import { PgTaskRepository } from "../../src/db/repositories/taskRepository.js";
import { fakeClock } from "../support/clock.js";
import { plan, step } from "../support/memoHarness.js";
import {
  scriptedHarnesses,
  textMessage,
  waId,
  type WaMessage,
  type WhatsAppHarness,
} from "../support/whatsappHarness.js";

const PHONE = "972501110039";
const PDF = "application/pdf";
const { server, harness } = scriptedHarnesses();

async function withOrders(): Promise<{ h: WhatsAppHarness; tasks: PgTaskRepository }> {
  const h = await harness({
    clock: fakeClock("2027-03-01T08:00:00Z"),
    documentOffers: new DocumentOffers(null),
  });
  await h.knownUser(PHONE, "en");
  const tasks = new PgTaskRepository(h.db.pool);
  for (const [key, text] of [
    ["seed#1", "Buy milk"],
    ["seed#2", "Call the plumber"],
  ] as const)
    await tasks.create(PHONE, key, { text, timeZone: "Asia/Jerusalem" });
  h.graphApi.addMedia(
    "media-orders",
    readFileSync(new URL("../fixtures/documents/orders.pdf", import.meta.url)),
    PDF,
  );
  return { h, tasks };
}

function ordersMessage(h: WhatsAppHarness, caption?: string): WaMessage {
  return {
    from: PHONE,
    id: waId(),
    timestamp: String(Math.floor(h.clock.now() / 1000)),
    type: "document",
    document: {
      id: "media-orders",
      mime_type: PDF,
      filename: "orders.pdf",
      sha256: "x",
      ...(caption ? { caption } : {}),
    },
  };
}

async function say(h: WhatsAppHarness, message: WaMessage, n: number): Promise<string> {
  h.clock.advance(1_000);
  await h.deliver(message);
  await h.graphApi.waitForSent(n);
  await h.idle();
  return h.graphApi.textsTo(PHONE).at(-1)!;
}

describe("orders.pdf through WhatsApp", () => {
  it("with a caption, an obeying model's delete asks first; 'no' deletes nothing", async () => {
    const { h, tasks } = await withOrders();
    server().enqueue(
      plan({ steps: [step("s1", "database", "delete_task")], riskLevel: "low", needsApproval: false }),
      { json: { operation: "delete", text: "milk" } },
    );
    const asked = await say(h, ordersMessage(h, "what's this?"), 1);
    expect(asked).toContain("Buy milk");
    await say(h, textMessage(PHONE, "no", h.clock.now() + 1_000), 2);
    expect((await tasks.list(PHONE)).map((t) => t.text).sort()).toEqual(["Buy milk", "Call the plumber"]);
  });

  it("without a caption, the offer lists only the tournament and the fees; nothing is done", async () => {
    const { h, tasks } = await withOrders();
    const offered = await say(h, ordersMessage(h), 1);
    const items = offered.split("\n").filter((line) => /^\d+\. /u.test(line));
    expect(items).toHaveLength(2);
    expect(items[0]).toMatch(/tournament.*Sun 04\/04 10:00/u);
    expect(items[1]).toMatch(/fees.*31\/03/iu);
    expect(await tasks.list(PHONE)).toHaveLength(2);
    expect(server().requests).toEqual([]);
  });
});
