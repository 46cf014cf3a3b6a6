// The daily LLM budget's bookkeeping (issue 22): a turn's calls are added up and written once, when
// the turn ends; calls made after it and outside a turn's own work
// (a digest) are written one by one. Every call counts, and a user over their limit is stopped.
//
// A turn whose work carries its LLM usage (the inbox worker, with the statement that ends the
// message): the budget writes nothing when the turn ends, counts the cost meanwhile, and keeps what
// the carrier reports; usage given back is written by the budget, once, however often it is told.
import { afterEach, describe, expect, it } from "vitest";
import { PgLlmUsageRepository } from "../../src/db/repositories/llmUsageRepository.js";
import { PgUserRepository } from "../../src/db/repositories/userRepository.js";
import { LLMBudget } from "../../src/services/llm/llmBudget.js";
import type { LLMCallRecord } from "../../src/services/llm/observedLlmService.js";
import type { LLMNode } from "../../src/types/llm.js";
import { withTurn, type CarriedUsage, type TurnContext } from "../../src/utils/turnContext.js";
import { backends, type TestDatabase } from "../support/db.js";
import { fakeClock } from "../support/clock.js";
import { captureLogs } from "../support/logs.js";
import { countQueries, type QueryCounter } from "../support/queryCounter.js";

const PHONE = "972501112233";

const call = (node: LLMNode, costUsd: number): LLMCallRecord => ({
  node,
  usage: {
    node,
    model: "gpt-4o-mini",
    inputTokens: 100,
    outputTokens: 10,
    costUsd,
    durationMs: 5,
    fallback: false,
  },
  ok: true,
  durationMs: 5,
});

let db: TestDatabase | undefined;
let counter: QueryCounter | undefined;
afterEach(async () => {
  counter?.restore();
  counter = undefined;
  await db?.close();
  db = undefined;
});

describe.each(backends)("the LLM budget's usage records on $name", (backend) => {
  async function setup(dailyUsd = 1) {
    db = await backend.create();
    await new PgUserRepository(db.pool).getOrCreate(PHONE, { timeZone: "Asia/Jerusalem" });
    const clock = fakeClock("2026-03-05T10:00:00Z");
    const budget = new LLMBudget({
      usage: new PgLlmUsageRepository(db.pool),
      logger: captureLogs().logger,
      dailyUsd,
      clock: clock.now,
    });
    const day = async () =>
      (
        await db!.pool.query<{ calls: number; input_tokens: string; cost_usd: number }>(
          "SELECT calls, input_tokens, cost_usd FROM llm_usage_daily WHERE user_phone = $1",
          [PHONE],
        )
      ).rows[0] ?? null;
    const turn = (trigger: TurnContext["trigger"] = "user"): TurnContext => ({
      traceId: "t",
      phone: PHONE,
      trigger,
    });
    return { budget, clock, day, turn };
  }

  it("writes a turn's calls once, when it ends, with all of them counted", async () => {
    const { budget, day, turn } = await setup();
    counter = countQueries();
    await withTurn(turn(), async () => {
      budget.observer(call("planner", 0.001));
      budget.observer(call("resolver:database", 0.002));
      budget.observer(call("memory", 0.003));
      await budget.idle();
      // Nothing written while the turn runs.
      expect(counter!.statements).toEqual([]);
    });
    await budget.idle();
    expect(counter.statements.filter((sql) => sql.includes("llm_usage_daily"))).toHaveLength(1);
    const row = await day();
    expect(row?.calls).toBe(3);
    expect(Number(row?.input_tokens)).toBe(300);
    expect(row?.cost_usd).toBeCloseTo(0.006, 6);
  });

  it("counts the calls a turn's background work makes after it ended, each written at once", async () => {
    const { budget, day, turn } = await setup();
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let background!: Promise<void>;
    await withTurn(turn(), async () => {
      budget.observer(call("planner", 0.001));
      // The memory work the reply started, still running after the turn.
      background = released.then(() => budget.observer(call("memory", 0.002)));
      await Promise.resolve();
    });
    await budget.idle();
    expect((await day())?.calls).toBe(1);
    release();
    await background;
    await budget.idle();
    expect((await day())?.calls).toBe(2);
    expect((await day())?.cost_usd).toBeCloseTo(0.003, 6);
  });

  it("stops a user over their limit before the turn's first call, and background calls count towards it", async () => {
    const { budget, clock, turn } = await setup(0.01);
    // A digest (the scheduler's work for the user, not admitted by a planner) spends most of it.
    await withTurn(turn("cron"), async () => {
      await budget.gate("responseWriter");
      budget.observer(call("responseWriter", 0.006));
    });
    // The digest's record is written before the turn below reads the day (a reading taken while
    // that write is in flight may count it twice for a moment: an over-count, never an under-count).
    await budget.idle();
    // A turn admitted within the budget finishes although its calls cross it.
    await withTurn(turn(), async () => {
      expect(await budget.admit(PHONE)).toBe(true);
      budget.observer(call("planner", 0.003));
      await budget.gate("resolver:database");
      budget.observer(call("resolver:database", 0.003));
      // Another process's reading would miss it until written; this one counts it already.
      clock.advance(60_000);
      expect(await budget.spentToday(PHONE)).toBeCloseTo(0.012, 6);
    });
    await budget.idle();
    clock.advance(60_000);
    // The next turn is refused before any call, and so is the user's background work.
    expect(await withTurn(turn(), () => budget.admit(PHONE))).toBe(false);
    await expect(withTurn(turn("cron"), () => budget.gate("responseWriter"))).rejects.toMatchObject({
      kind: "over_budget",
    });
    // Counted from the table too (a fresh instance, as another process would read it).
    const other = new LLMBudget({
      usage: new PgLlmUsageRepository(db!.pool),
      logger: captureLogs().logger,
      dailyUsd: 0.01,
      clock: clock.now,
    });
    expect(await other.exhausted(PHONE)).toBe(true);
  });

  it("takes the spend read with the user at the turn's start instead of reading it again, and still refuses over the limit", async () => {
    const { budget, clock, turn } = await setup(0.01);
    const handed = (costUsd: number): TurnContext => ({
      ...turn(),
      llmSpend: { day: "2026-03-05", costUsd, readAt: clock.now() },
    });
    counter = countQueries();
    // Within the limit: admitted on what was handed, with no read of its own.
    expect(await withTurn(handed(0.004), () => budget.admit(PHONE))).toBe(true);
    expect(counter.statements).toEqual([]);
    clock.advance(60_000);
    // Over it (as read by the transport): refused before any call, still without a read.
    const over = handed(0.02);
    expect(await withTurn(over, () => budget.admit(PHONE))).toBe(false);
    await expect(withTurn(over, () => budget.gate("planner"))).rejects.toMatchObject({ kind: "over_budget" });
    expect(counter.statements).toEqual([]);
    // What the turn's calls add counts on top of it.
    clock.advance(60_000);
    await withTurn(handed(0.004), async () => {
      expect(await budget.admit(PHONE)).toBe(true);
      budget.observer(call("planner", 0.007));
      expect(await budget.spentToday(PHONE)).toBeCloseTo(0.011, 6);
    });
    await budget.idle();
  });

  it("reads the spend itself when a background call's write is still running (the handed reading may miss it)", async () => {
    db = await backend.create();
    await new PgUserRepository(db.pool).getOrCreate(PHONE, { timeZone: "Asia/Jerusalem" });
    const clock = fakeClock("2026-03-05T10:00:00Z");
    // The ledger holds its writes until told.
    let land!: () => void;
    const landed = new Promise<void>((resolve) => (land = resolve));
    const usage = new PgLlmUsageRepository(db.pool);
    const slow = Object.assign(Object.create(usage) as PgLlmUsageRepository, {
      add: async (...args: Parameters<PgLlmUsageRepository["add"]>) => {
        await landed;
        return usage.add(...args);
      },
    });
    const budget = new LLMBudget({
      usage: slow,
      logger: captureLogs().logger,
      dailyUsd: 1,
      clock: clock.now,
    });
    const turn = (): TurnContext => ({ traceId: "t", phone: PHONE, trigger: "user" });
    let background!: Promise<void>;
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await withTurn(turn(), async () => {
      // The memory work the reply started, after the turn: its call is written on its own.
      background = released.then(() => budget.observer(call("memory", 0.005)));
      await Promise.resolve();
    });
    release();
    await background;
    counter = countQueries();
    const handed = { ...turn(), llmSpend: { day: "2026-03-05", costUsd: 0, readAt: clock.now() } };
    await withTurn(handed, () => budget.admit(PHONE));
    expect(counter.statements.filter((sql) => sql.includes("LEFT JOIN llm_usage_daily"))).toHaveLength(1);
    land();
    await budget.idle();
    // Without a write running, the next turn's reading is taken as handed.
    clock.advance(60_000);
    const next = { ...turn(), llmSpend: { day: "2026-03-05", costUsd: 0.005, readAt: clock.now() } };
    await withTurn(next, () => budget.admit(PHONE));
    expect(counter.statements.filter((sql) => sql.includes("LEFT JOIN llm_usage_daily"))).toHaveLength(1);
  });
});

describe.each(backends)("a turn's carried LLM usage on $name", (backend) => {
  async function setup() {
    db = await backend.create();
    await new PgUserRepository(db.pool).getOrCreate(PHONE, { timeZone: "Asia/Jerusalem" });
    const clock = fakeClock("2026-03-05T10:00:00Z");
    const usage = new PgLlmUsageRepository(db.pool);
    const budget = new LLMBudget({ usage, logger: captureLogs().logger, dailyUsd: 1, clock: clock.now });
    const day = async () =>
      (
        await db!.pool.query<{ calls: number; cost_usd: number }>(
          "SELECT calls, cost_usd FROM llm_usage_daily WHERE user_phone = $1",
          [PHONE],
        )
      ).rows[0] ?? null;
    /** Runs a carried turn of two calls (0.001 + 0.002); returns what it left for its carrier. */
    const carriedTurn = async (): Promise<CarriedUsage> => {
      const carrier: NonNullable<TurnContext["usageCarrier"]> = {};
      await withTurn({ traceId: "t", phone: PHONE, trigger: "user", usageCarrier: carrier }, async () => {
        budget.observer(call("planner", 0.001));
        budget.observer(call("responseWriter", 0.002));
        await Promise.resolve();
      });
      expect(carrier.usage).toBeDefined();
      return carrier.usage!;
    };
    return { budget, clock, usage, day, carriedTurn };
  }

  it("writes nothing at the turn's end, counts the cost until told, and keeps the day the carrier wrote", async () => {
    const { budget, usage, day, carriedTurn } = await setup();
    counter = countQueries();
    const carried = await carriedTurn();
    expect(carried).toMatchObject({ phone: PHONE, calls: 2, inputTokens: 200, outputTokens: 20 });
    expect(carried.costUsd).toBeCloseTo(0.003, 9);
    // Not yet written: idle waits for the carrier, and the spend read counts it already.
    let idle = false;
    const waiting = budget.idle().then(() => (idle = true));
    expect(await budget.spentToday(PHONE)).toBeCloseTo(0.003, 9);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(idle).toBe(false);
    expect(counter.statements.filter((sql) => sql.startsWith("INSERT INTO llm_usage_daily"))).toEqual([]);
    // The carrier's statement (here the repository's own) wrote it and returned the day.
    const written = await usage.add(carried.phone, carried.at, carried);
    carried.written(written);
    await waiting;
    // Counted once: the day as written, nothing left unwritten, no write of the budget's own.
    counter.restore();
    counter = countQueries();
    expect(await budget.spentToday(PHONE)).toBeCloseTo(0.003, 9);
    expect(counter.statements).toEqual([]);
    carried.unwritten();
    await budget.idle();
    expect(await day()).toMatchObject({ calls: 2 });
    expect((await day())!.cost_usd).toBeCloseTo(0.003, 9);
  });

  it("writes usage given back on its own, once", async () => {
    const { budget, clock, day, carriedTurn } = await setup();
    const carried = await carriedTurn();
    counter = countQueries();
    carried.unwritten();
    carried.unwritten();
    carried.written(null);
    await budget.idle();
    expect(counter.statements.filter((sql) => sql.startsWith("INSERT INTO llm_usage_daily"))).toHaveLength(1);
    expect(await day()).toMatchObject({ calls: 2 });
    expect((await day())!.cost_usd).toBeCloseTo(0.003, 9);
    // Read again later: the table's total, with nothing still counted as unwritten.
    clock.advance(60_000);
    expect(await budget.spentToday(PHONE)).toBeCloseTo(0.003, 9);
  });

  it("a turn that nothing carries writes its calls at its end, as ever", async () => {
    const { budget, day } = await setup();
    await withTurn({ traceId: "t", phone: PHONE, trigger: "user" }, async () => {
      budget.observer(call("planner", 0.001));
      await Promise.resolve();
    });
    await budget.idle();
    expect(await day()).toMatchObject({ calls: 1 });
  });
});
