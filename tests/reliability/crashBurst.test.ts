// kill -9 in the middle of a burst of replies (issue #20): on the embedded PGlite (always) and on
// Postgres (when TEST_DATABASE_URL is set). Each round posts a burst, kills the process while its
// replies are going out, restarts it and lets it drain. A reply the Graph API accepted but the
// process had not recorded when it died is sent again after the restart: that window is one
// send wide (WhatsAppSender sends one message at a time per process), so a crash costs at most
// one duplicate, and nothing is lost.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDatabaseUrl } from "../support/db.js";
import { textOf } from "../support/fakeGraphApi.js";
import {
  echoReply,
  GENERAL_PLAN,
  isPlanner,
  ReliabilityRig,
  scaled,
  sleep,
  textMessage,
  waitUntil,
  type MemoInstance,
} from "../support/reliability.js";

/** Rounds (one kill each), phones per burst and messages per phone. */
const CRASHES = scaled(2, 5);
const PHONES = scaled(6, 20);
const PER_PHONE = 3;
/** The kill comes once this share of a round's replies has gone out: sends are in full flow. */
const KILL_AFTER = 1 / 4;

const engines = [
  { engine: "pglite" as const, start: () => ReliabilityRig.startEmbedded("memo_rel_burst") },
  ...(testDatabaseUrl
    ? [{ engine: "postgres" as const, start: () => ReliabilityRig.start(testDatabaseUrl!, "memo_rel_burst") }]
    : []),
];

describe.each(engines)("kill -9 during a burst of replies on $engine", ({ engine, start }) => {
  let rig: ReliabilityRig;
  let memo: MemoInstance;

  beforeAll(async () => {
    rig = await start();
    rig.llm.on(isPlanner, () => GENERAL_PLAN);
    rig.llm.on(() => true, echoReply);
    memo = await rig.instance("memo", { FAST_PATH: "off", SCHEDULER: "off" });
    await memo.start();
  }, 120_000);

  afterAll(async () => {
    await rig?.close();
  }, 60_000);

  it(`${CRASHES} crashes, ${PHONES} phones × ${PER_PHONE} messages each: no reply lost, at most one sent twice per crash, each phone's replies in order`, async () => {
    /** How many times each burst message's echo was sent, by its text. */
    const echoCounts = () => {
      const counts = new Map<string, number>();
      for (const message of rig.graph.sent) {
        const text = textOf(message);
        if (text.startsWith("echo: burst ")) counts.set(text, (counts.get(text) ?? 0) + 1);
      }
      return counts;
    };
    const phoneOf = (round: number, p: number) => `9726${round}${String(p).padStart(7, "0")}`;
    const expected: { phone: string; texts: string[] }[] = [];
    const started = Date.now();

    for (let round = 0; round < CRASHES; round++) {
      const base = Date.now() - 10_000;
      const burst = Array.from({ length: PHONES }, (_, p) => ({
        phone: phoneOf(round, p),
        texts: Array.from({ length: PER_PHONE }, (_, m) => `burst ${round} ${p} ${m}`),
      }));
      expected.push(...burst);
      const inRound = () =>
        [...echoCounts().keys()].filter((text) => text.startsWith(`echo: burst ${round} `)).length;
      // Every phone's messages in one webhook call each, all phones at once: all 200 before the kill.
      await Promise.all(
        burst.map(({ phone, texts }) =>
          memo.deliver(...texts.map((text, m) => textMessage(phone, text, base + m * 1000))),
        ),
      );
      await waitUntil(
        () => inRound() >= PHONES * PER_PHONE * KILL_AFTER,
        60_000,
        () => `round ${round}: ${inRound()} replies before the kill`,
      );
      await memo.kill();
      await memo.restart();
      await waitUntil(
        () => inRound() >= PHONES * PER_PHONE,
        scaled(60_000, 180_000),
        () => `round ${round}: ${inRound()} of ${PHONES * PER_PHONE} answered after the restart`,
      );
    }
    // A reply sent twice would arrive now.
    await sleep(1000);

    const counts = echoCounts();
    const lost = expected.flatMap((b) => b.texts).filter((text) => !counts.has(`echo: ${text}`));
    // Any message a phone received twice (an echo, or the welcome of its first message).
    const copies = new Map<string, number>();
    for (const message of rig.graph.sent) {
      const key = `${message.to}: ${textOf(message)}`;
      copies.set(key, (copies.get(key) ?? 0) + 1);
    }
    const twice = [...copies].filter(([, n]) => n > 1);
    const duplicates = twice.reduce((sum, [, n]) => sum + n - 1, 0);
    const messages = PHONES * PER_PHONE;
    console.info(
      `[reliability] crash burst (${engine}): ${CRASHES} kill -9 × ${messages} messages, ${duplicates} replies sent twice (${(duplicates / CRASHES).toFixed(2)} per crash), ${lost.length} lost, in ${Date.now() - started} ms`,
    );
    expect(lost).toEqual([]);
    expect(duplicates, JSON.stringify(twice)).toBeLessThanOrEqual(CRASHES);
    // Each phone's replies in the order of its messages (a resent reply right after its first copy).
    for (const { phone, texts } of expected) {
      const echoes = rig.textsTo(phone).filter((text) => text.startsWith("echo: "));
      expect(
        echoes.filter((text, i) => text !== echoes[i - 1]),
        phone,
      ).toEqual(texts.map((text) => `echo: ${text}`));
    }
    expect(memo.exits).toEqual(Array.from({ length: CRASHES }, () => 137));
    expect(memo.escapedErrors()).toEqual([]);
  }, 300_000);
});
