// Issue 22: an inbox turn's reply is recorded by the statement that ends its message, not on its
// own; the send slot (WHATSAPP_SEND_CONCURRENCY) stays taken until that record is written, so a
// crash still repeats at most one message per slot, and a turn that sends again records first.
import { describe, expect, it } from "vitest";
import type {
  NewOutboundMessage,
  OutboundMessageRepository,
} from "../../src/db/repositories/outboundMessageRepository.js";
import type { MemoryService } from "../../src/services/memory/index.js";
import type { GraphApiClient } from "../../src/transport/whatsapp/graphApiClient.js";
import type { OutboundPayload } from "../../src/transport/whatsapp/outboundFormat.js";
import { HeldRecords, WhatsAppSender } from "../../src/transport/whatsapp/whatsAppSender.js";
import { captureLogs } from "../support/logs.js";

const ALICE = "972501110001";
const BOB = "972501110002";

function setup(sendConcurrency = 1) {
  const events: string[] = [];
  let n = 0;
  const client = {
    sendMessage(payload: OutboundPayload) {
      const id = `wamid.OUT${++n}`;
      events.push(`send ${payload.to} ${id}`);
      return Promise.resolve({ id });
    },
    markRead: () => Promise.resolve(),
  } as unknown as GraphApiClient;
  const recorded: NewOutboundMessage[] = [];
  const recordMany = (messages: readonly NewOutboundMessage[]) => {
    events.push(`record ${messages.map((m) => m.waMessageId).join(",")}`);
    recorded.push(...messages);
    return Promise.resolve();
  };
  const outbound = {
    recordMany,
    record: (message: NewOutboundMessage) => recordMany([message]),
  } as unknown as OutboundMessageRepository;
  const linked: string[] = [];
  const memory = {
    setAssistantMessageId(_phone: string, localId: string, id: string) {
      linked.push(`${localId}=${id}`);
      return Promise.resolve();
    },
  } as unknown as MemoryService;
  const { logger } = captureLogs();
  const sender = new WhatsAppSender({ client, outbound, memory, logger, sendConcurrency });
  /** Held records as the inbox worker keeps them: written by its statement, here a log line. */
  const held = new HeldRecords((messages) => {
    events.push(`inbox writes ${messages.map((m) => m.waMessageId).join(",")}`);
    return Promise.resolve();
  }, logger);
  return { sender, held, events, recorded, linked, logger };
}

const text = (body: string) => ({ text: body, options: [], language: "en" as const });

describe("a reply's record held for the inbox", () => {
  it("is not written by the sender, and keeps the send slot until the inbox writes it", async () => {
    const { sender, held, events, recorded, linked } = setup(1);
    const ids = await sender.send(ALICE, text("hi"), {
      inReplyTo: "wamid.IN1",
      memory: { link: "local-1" },
      held,
    });
    expect(ids).toEqual(["wamid.OUT1"]);
    expect(recorded).toEqual([]);
    // The window's message learns its id (the store reads it from the record, by localId).
    expect(linked).toEqual(["local-1=wamid.OUT1"]);

    // Another phone's reminder waits for the slot: the held message is not recorded yet.
    const other = sender.send(BOB, text("reminder"), { memory: "none" });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(events).toEqual(["send 972501110001 wamid.OUT1"]);

    const { messages, done } = held.take();
    expect(messages).toEqual([
      {
        waMessageId: "wamid.OUT1",
        phone: ALICE,
        inReplyTo: "wamid.IN1",
        kind: "text",
        body: "hi",
        localId: "local-1",
      },
    ]);
    done();
    expect(await other).toEqual(["wamid.OUT2"]);
    expect(events).toEqual([
      "send 972501110001 wamid.OUT1",
      "send 972501110002 wamid.OUT2",
      "record wamid.OUT2",
    ]);
  });

  it("is written before the same turn sends again (no wait on its own slot), one held at a time", async () => {
    const { sender, held, events } = setup(1);
    await sender.send(ALICE, text("I heard: buy milk"), { memory: "none", held });
    await sender.send(ALICE, text("added"), { inReplyTo: "wamid.IN1", memory: { link: "local-2" }, held });
    expect(events).toEqual([
      "send 972501110001 wamid.OUT1",
      "inbox writes wamid.OUT1",
      "send 972501110001 wamid.OUT2",
    ]);
    expect(held.take().messages.map((m) => m.waMessageId)).toEqual(["wamid.OUT2"]);
  });

  it("is not held when the sender writes the window after sending (memory: add)", async () => {
    const { sender, held, recorded } = setup(1);
    const memory = { addAssistantMessage: () => Promise.resolve(null) };
    Object.assign((sender as unknown as { deps: { memory: unknown } }).deps, { memory });
    await sender.send(ALICE, text("welcome"), { inReplyTo: "wamid.IN1", memory: "add", held });
    expect(recorded.map((m) => m.waMessageId)).toEqual(["wamid.OUT1"]);
    expect(held.take().messages).toEqual([]);
  });

  it("lets the slot go even when the inbox's write fails (logged: a sent message is not sent again)", async () => {
    const { sender, events } = setup(1);
    const failing = new HeldRecords(() => Promise.reject(new Error("database down")), captureLogs().logger);
    await sender.send(ALICE, text("hi"), { inReplyTo: "wamid.IN1", memory: "none", held: failing });
    await failing.flush();
    expect(await sender.send(BOB, text("next"), { memory: "none" })).toEqual(["wamid.OUT2"]);
    expect(events).toContain("record wamid.OUT2");
  });
});
