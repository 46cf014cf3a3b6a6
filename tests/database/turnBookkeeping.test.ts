// What a turn's bookkeeping costs the database (issue 22): the LLM budget and usage, the operation
// ledger and the undo journal. A one-step LLM operation reads the budget once, writes its calls'
// usage once, copies its rows for undo once and writes its ledger and undo entries in one
// statement; housekeeping (expired undo entries, week-old ledger entries) is the scheduler's, never
// the turn's. A read-only command touches none of it. A re-run of a turn reads the ledger once.
import { afterEach, describe, expect, it } from "vitest";
import { backends } from "../support/db.js";
import { createHarness, PHONE, type Harness } from "../support/memoHarness.js";
import { countQueries, type QueryCounter } from "../support/queryCounter.js";
import { crashOnce, scriptTurn, stores } from "../support/databaseScript.js";

/** The statements of this area, each named by what it is for. */
function bookkeeping(statements: readonly string[]): string[] {
  const named: string[] = [];
  for (const sql of statements) {
    if (/llm_usage_daily/.test(sql)) named.push(sql.startsWith("SELECT") ? "budget read" : "usage write");
    else if (
      /^WITH undo AS \(INSERT INTO undo_journal/.test(sql) &&
      /INSERT INTO database_operations/.test(sql)
    )
      named.push("ledger+undo write");
    else if (/database_operations/.test(sql))
      named.push(
        sql.startsWith("SELECT") ? "ledger read" : sql.startsWith("DELETE") ? "ledger purge" : "ledger write",
      );
    else if (/undo_journal/.test(sql)) named.push(sql.startsWith("DELETE") ? "undo purge" : "undo write");
    else if (/to_jsonb\(t\)/.test(sql)) named.push("undo copy");
  }
  return named;
}

let h: Harness | undefined;
let counter: QueryCounter | undefined;
afterEach(async () => {
  counter?.restore();
  counter = undefined;
  await h?.close();
  h = undefined;
});

const usage = async (harness: Harness) =>
  (
    await harness.db.pool.query<{ calls: number }>(
      "SELECT calls FROM llm_usage_daily WHERE user_phone = $1",
      [PHONE],
    )
  ).rows[0]?.calls ?? 0;

describe.each(backends)("a turn's bookkeeping on $name", (backend) => {
  it("a one-step LLM operation: one budget read, one usage write, one undo copy, one ledger+undo write", async () => {
    h = await createHarness({ db: await backend.create(), env: { FAST_PATH: "on" } });
    await h.users.getOrCreate(PHONE, { timeZone: "Asia/Jerusalem" });
    scriptTurn(h, "add_list_item", { operation: "addItem", listName: "shopping", items: ["lemons"] });
    counter = countQueries();
    const reply = await h.say("add 3 lemons to my shopping list", { whatsappMessageId: "wamid.lemons" });
    expect(reply.text).toContain("lemons");
    // The planner's and the resolver's calls, written together when the turn ended.
    await expect.poll(() => usage(h!)).toBe(2);
    const seen = bookkeeping(counter.statements.filter((sql) => !sql.includes("SELECT calls FROM")));
    expect(seen).toEqual(["budget read", "undo copy", "ledger+undo write", "usage write"]);

    // Undo still takes it back: the journal entry was written with the ledger's.
    expect((await h.say("undo")).text.toLowerCase()).toContain("shopping");
    expect((await stores(h).lists()).find((l) => l.name === "shopping")).toBeUndefined();
  });

  it("a read-only command touches neither the budget, the ledger nor the journal", async () => {
    h = await createHarness({ db: await backend.create(), env: { FAST_PATH: "on" } });
    await h.users.getOrCreate(PHONE, { timeZone: "Asia/Jerusalem" });
    await stores(h).listRepo.create(PHONE, "seed", { name: "Shopping", items: ["milk"] });
    counter = countQueries();
    const reply = await h.say("show my lists");
    expect(reply.text).toContain("Shopping");
    expect(h.server!.requests).toHaveLength(0);
    expect(bookkeeping(counter.statements)).toEqual([]);
  });

  it("a re-run of a turn whose operation happened reads the ledger once and changes nothing again", async () => {
    h = await createHarness({ db: await backend.create() });
    await h.users.getOrCreate(PHONE, { timeZone: "Asia/Jerusalem" });
    await stores(h).listRepo.create(PHONE, "seed", { name: "Shopping", items: ["milk"] });
    crashOnce(h);
    scriptTurn(h, "add_list_item", { operation: "addItem", listName: "shopping", items: ["lemons"] });
    expect((await h.say("add lemons to shopping", { whatsappMessageId: "wamid.rerun" })).status).toBe(
      "failed",
    );
    scriptTurn(h, "add_list_item", { operation: "addItem", listName: "shopping", items: ["lemons"] });
    counter = countQueries();
    const again = await h.say("add lemons to shopping", { whatsappMessageId: "wamid.rerun" });
    expect(again.text).toContain("lemons");
    expect((await stores(h).lists())[0]!.items.map((i) => i.text)).toEqual(["milk", "lemons"]);
    const ledger = bookkeeping(counter.statements).filter((s) => s.startsWith("ledger"));
    // Its write found the first run's entry, rolled back, and read that outcome.
    expect(ledger).toEqual(["ledger+undo write", "ledger read"]);
  });
});
