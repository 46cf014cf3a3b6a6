// TaskRepository, ListRepository and the operation ledger on every backend (PGlite, and the
// machine's Postgres when TEST_DATABASE_URL is set), with a property test of owner isolation.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PgListRepository } from "../../src/db/repositories/listRepository.js";
import { PgOperationLedger } from "../../src/db/repositories/operationLedger.js";
import { PgTaskRepository } from "../../src/db/repositories/taskRepository.js";
import { PgUserRepository } from "../../src/db/repositories/userRepository.js";
import { withTransaction } from "../../src/db/transaction.js";
import { backends, type TestDatabase } from "../support/db.js";
import { prng, type Prng } from "../support/random.js";

const ZONE = "Asia/Jerusalem";

/** A random version-4 UUID from a seeded generator (a failing round replays: set PROPERTY_SEED). */
function uuidOf(random: Prng): string {
  const hex = (n: number) => Array.from({ length: n }, () => random.int(16).toString(16)).join("");
  return `${hex(8)}-${hex(4)}-4${hex(3)}-a${hex(3)}-${hex(12)}`;
}

const SEED = Number(process.env.PROPERTY_SEED ?? 20261122);

describe.each(backends)("task and list storage on $name", (backend) => {
  let db: TestDatabase;
  let tasks: PgTaskRepository;
  let lists: PgListRepository;
  let n = 0;
  /** A user no other test of this suite uses. */
  const newUser = async () => {
    const phone = `97252${String(++n).padStart(7, "0")}`;
    await new PgUserRepository(db.pool).getOrCreate(phone);
    return phone;
  };

  beforeAll(async () => {
    db = await backend.create();
    tasks = new PgTaskRepository(db.pool);
    lists = new PgListRepository(db.pool);
  });
  afterAll(async () => db?.close());

  it("creates a task once per operation key, and returns the first one on a repeat", async () => {
    const phone = await newUser();
    const first = await tasks.create(phone, "trace-1:s1#0", {
      text: "call mom",
      timeZone: ZONE,
      dueAt: "2026-03-06T07:00:00.000Z",
    });
    const again = await tasks.create(phone, "trace-1:s1#0", { text: "something else", timeZone: ZONE });
    expect(again).toEqual(first);
    expect(await tasks.list(phone)).toHaveLength(1);
    expect(first).toMatchObject({
      text: "call mom",
      dueAt: "2026-03-06T07:00:00.000Z",
      subtasks: [],
      completed: false,
    });
  });

  it("lists in creation order, filters open/done and category, updates and deletes", async () => {
    const phone = await newUser();
    const a = await tasks.create(phone, "k#0", { text: "A", timeZone: ZONE, category: "Work" });
    const b = await tasks.create(phone, "k#1", { text: "B", timeZone: ZONE });
    const c = await tasks.create(phone, "k#2", { text: "C", timeZone: ZONE });
    await tasks.update(phone, b.id, { completed: true, completedAt: "2026-03-05T10:00:00.000Z" });
    expect((await tasks.list(phone)).map((t) => t.text)).toEqual(["A", "B", "C"]);
    expect((await tasks.list(phone, { completed: false })).map((t) => t.text)).toEqual(["A", "C"]);
    expect((await tasks.list(phone, { category: "work" })).map((t) => t.text)).toEqual(["A"]);
    const updated = await tasks.update(phone, a.id, {
      recurrence: { type: "weekly", days: [1, 3], time: "18:00" },
      subtasks: [{ text: "x", completed: false }],
    });
    expect(updated).toMatchObject({
      recurrence: { type: "weekly", days: [1, 3], time: "18:00" },
      subtasks: [{ text: "x", completed: false }],
    });
    expect((await tasks.delete(phone, [c.id, "not-a-uuid"])).map((t) => t.text)).toEqual(["C"]);
    expect(await tasks.getMany(phone, [c.id, a.id])).toEqual([updated]);
  });

  it("gives items added to one list by two transactions at once distinct positions, and touches the list", async () => {
    const phone = await newUser();
    const list = await lists.create(phone, "l#race", { name: "Race", items: ["a"] });
    // Two pool clients on Postgres; PGlite's single connection runs them one after the other.
    await Promise.all(
      [["b", "c"], ["d"]].map((texts) =>
        withTransaction(db.pool, (client) => new PgListRepository(client).addItems(phone, list.id, texts)),
      ),
    );
    const after = (await lists.get(phone, list.id))!;
    expect(after.items.map((i) => i.position)).toEqual([1, 2, 3, 4]);
    expect(after.items.map((i) => i.text).sort()).toEqual(["a", "b", "c", "d"]);
    expect(Date.parse(after.updatedAt)).toBeGreaterThanOrEqual(Date.parse(list.updatedAt));
    // Nothing to add: the list is checked, not touched; another user's list is not found.
    expect(await lists.addItems(phone, list.id, [])).toEqual([]);
    expect((await lists.get(phone, list.id))!.updatedAt).toBe(after.updatedAt);
    expect(await lists.addItems(await newUser(), list.id, [])).toBeNull();
  });

  it("keeps list items in order, with checks, and deletes a list with its items", async () => {
    const phone = await newUser();
    const list = await lists.create(phone, "l#0", { name: "Shopping", items: ["milk", "eggs"] });
    await lists.addItems(phone, list.id, ["bread"]);
    const eggs = list.items[1]!;
    expect(await lists.toggleItem(phone, eggs.id)).toMatchObject({ text: "eggs", checked: true });
    expect(await lists.toggleItem(phone, eggs.id, true)).toMatchObject({ checked: true });
    const again = await lists.create(phone, "l#0", { name: "Other" });
    expect(again.id).toBe(list.id);
    expect((await lists.get(phone, list.id))!.items.map((i) => [i.text, i.checked, i.position])).toEqual([
      ["milk", false, 1],
      ["eggs", true, 2],
      ["bread", false, 3],
    ]);
    await lists.deleteItems(phone, [eggs.id]);
    expect((await lists.update(phone, list.id, { name: "Groceries" }))!.items.map((i) => i.text)).toEqual([
      "milk",
      "bread",
    ]);
    expect((await lists.delete(phone, [list.id]))[0]!.name).toBe("Groceries");
    const { rows } = await db.pool.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM list_items WHERE list_id = $1",
      [list.id],
    );
    expect(rows[0]!.n).toBe(0);
  });

  it("records an operation's outcome in the transaction of its change, or not at all", async () => {
    const phone = await newUser();
    await expect(
      withTransaction(db.pool, async (client) => {
        await new PgTaskRepository(client).create(phone, "op-fail#0", { text: "lost", timeZone: ZONE });
        await new PgOperationLedger(client).record(phone, "op-fail", { success: true });
        throw new Error("crash before commit");
      }),
    ).rejects.toThrow("crash before commit");
    expect(await tasks.list(phone)).toEqual([]);
    expect(await new PgOperationLedger(db.pool).get(phone, "op-fail")).toBeUndefined();

    await withTransaction(db.pool, async (client) => {
      await new PgTaskRepository(client).create(phone, "op-ok#0", { text: "kept", timeZone: ZONE });
      await new PgOperationLedger(client).record(phone, "op-ok", { success: true, data: { n: 1 } });
    });
    expect(await new PgOperationLedger(db.pool).get(phone, "op-ok")).toEqual({
      success: true,
      data: { n: 1 },
    });
    // Another user never reads this user's ledger.
    expect(await new PgOperationLedger(db.pool).get(await newUser(), "op-ok")).toBeUndefined();
  });

  it("property: whatever ids user A names, B's tasks, lists and items are never read or changed", async () => {
    const a = await newUser();
    const b = await newUser();
    const theirTasks = await Promise.all(
      [0, 1, 2].map((i) => tasks.create(b, `b#${i}`, { text: `B task ${i}`, timeZone: ZONE })),
    );
    const theirList = await lists.create(b, "bl#0", { name: "B list", items: ["b1", "b2"] });
    await tasks.create(a, "a#0", { text: "A task", timeZone: ZONE });
    const before = { tasks: await tasks.list(b), lists: await lists.list(b) };
    const knownIds = [...theirTasks.map((t) => t.id), theirList.id, ...theirList.items.map((i) => i.id)];

    const random = prng(SEED);
    for (let round = 0; round < 60; round++) {
      // B's real ids, random uuids, and malformed ids, in random mixes.
      const pick = () => {
        const r = random.int(3);
        return r === 0
          ? knownIds[random.int(knownIds.length)]!
          : r === 1
            ? uuidOf(random)
            : `x${random.int(1000)}`;
      };
      const id = pick();
      const ids = [pick(), pick(), pick()];
      expect(await tasks.get(a, id)).toBeNull();
      expect(await tasks.getMany(a, ids)).toEqual([]);
      expect(await tasks.update(a, id, { text: "pwned", completed: true })).toBeNull();
      expect(await tasks.delete(a, ids)).toEqual([]);
      expect(await lists.get(a, id)).toBeNull();
      expect(await lists.update(a, id, { name: "pwned" })).toBeNull();
      expect(await lists.addItems(a, id, ["pwned"])).toBeNull();
      expect(await lists.toggleItem(a, id)).toBeNull();
      expect(await lists.deleteItems(a, ids)).toEqual([]);
      expect(await lists.delete(a, ids)).toEqual([]);
    }
    expect(await tasks.list(b)).toEqual(before.tasks);
    expect(await lists.list(b)).toEqual(before.lists);
    expect((await tasks.list(a)).map((t) => t.text)).toEqual(["A task"]);
  });
});
