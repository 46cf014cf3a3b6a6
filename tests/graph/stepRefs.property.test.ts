// A property of plans whose steps depend on each other (issue 33, D13): random two- and three-step
// plans over random users' data (other lists and tasks already there), each after a message whose
// latest action is another list or task of the same kind. Whatever form the dependent step's
// reference takes ("it", "זה", "@1", "the list", "them", fromStep, nothing), it acts only on its
// dependency's result, never on the earlier message's entity nor on the user's other data. The seed
// comes from PROPERTY_SEED, so a failing round replays.
import { afterAll, beforeAll, expect, it } from "vitest";
import { createHarness, plan, step, type Harness } from "../support/memoHarness.js";
import { stores } from "../support/databaseScript.js";
import { prng, type Prng } from "../support/random.js";

const SEED = Number(process.env.PROPERTY_SEED ?? 20261128);
const ROUNDS = 12;
const ZONE = "Asia/Jerusalem";

/** The ways a dependent step's resolver may point back at what an earlier step produced. */
const LIST_REFERENCES = [
  { listName: "it" },
  { listName: "זה" },
  { listName: "the list" },
  { listId: "@1" },
  {},
  { fromStep: "s1" },
] as const;
const TASK_REFERENCES = [{ taskId: "@1" }, { text: "it" }, { text: "אותה" }, {}, { fromStep: "s1" }] as const;
/** "complete them" after a search: no filters, a pronoun, or the search's step named. */
const BULK_REFERENCES = [
  {},
  { filters: { query: "them" } },
  { filters: { query: "אותן" } },
  { fromStep: "s1" },
];

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

/** A user of their own for the round, with a few other lists and tasks of random names already there. */
async function randomUser(random: Prng, round: number): Promise<{ phone: string; others: string[] }> {
  const phone = `97250${String(1_000_000 + round * 7919 + random.int(7000)).padStart(7, "0")}`;
  await h.users.getOrCreate(phone, { timeZone: ZONE });
  const { taskRepo, listRepo } = stores(h, phone);
  const others = Array.from({ length: random.int(3) }, (_, i) => `other ${round}.${i} ${random.int(1000)}`);
  for (const [i, name] of others.entries()) {
    await taskRepo.create(phone, `seed:${round}:${i}`, { text: name, timeZone: ZONE });
    await listRepo.create(phone, `seed:${round}:${i}`, { name, items: ["kept"] });
  }
  return { phone, others };
}

it(`random dependent plans act only on their dependency's result (seed ${SEED}, ${ROUNDS} rounds)`, async () => {
  const random = prng(SEED);
  for (let round = 0; round < ROUNDS; round++) {
    const where = `seed ${SEED}, round ${round}`;
    const { phone, others } = await randomUser(random, round);
    const say = (steps: ReturnType<typeof step>[], ops: object[]) => {
      h.server!.enqueue(plan({ steps }), ...ops.map((json) => ({ json })));
      return h.runtime.invokeMemoGraph(phone, "…");
    };
    const { tasks: tasksOf, lists: listsOf } = stores(h, phone);
    // Every kind of plan, with two and with three steps, comes up in any six rounds; what the
    // steps say, which step the third depends on and the user's data are random.
    const family = (["lists", "tasks", "search"] as const)[round % 3]!;
    const third = round % 2 === 1;
    if (family === "lists") {
      // An earlier message's list is the latest action; then create, add, maybe add again.
      const earlier = `earlier ${round}`;
      await say(
        [step("s1", "database", "create_list")],
        [{ operation: "create", listName: earlier, items: ["x"] }],
      );
      const fresh = `fresh ${round}`;
      const steps = [
        step("s1", "database", "create_list"),
        step("s2", "database", "add_list_item", { dependsOn: ["s1"] }),
        ...(third
          ? [step("s3", "database", "add_list_item", { dependsOn: [random.pick(["s1", "s2"])] })]
          : []),
      ];
      const adds = (item: string) => ({
        operation: "addItem",
        items: [item],
        ...random.pick(LIST_REFERENCES),
      });
      await say(steps, [{ operation: "create", listName: fresh }, adds("a"), ...(third ? [adds("b")] : [])]);
      const items = Object.fromEntries((await listsOf()).map((l) => [l.name, l.items.map((i) => i.text)]));
      expect(items, where).toEqual({
        [fresh]: third ? ["a", "b"] : ["a"],
        [earlier]: ["x"],
        ...Object.fromEntries(others.map((name) => [name, ["kept"]])),
      });
    } else if (family === "tasks") {
      // An earlier message's task is the latest action; then create, change it, maybe complete it.
      const earlier = `earlier task ${round}`;
      await say([step("s1", "database", "create_task")], [{ operation: "create", text: earlier }]);
      const fresh = `fresh task ${round}`;
      const steps = [
        step("s1", "database", "create_task"),
        step("s2", "database", "update_task", { dependsOn: ["s1"] }),
        ...(third
          ? [step("s3", "database", "complete_task", { dependsOn: [random.pick(["s1", "s2"])] })]
          : []),
      ];
      await say(steps, [
        { operation: "create", text: fresh },
        { operation: "update", category: "errands", ...random.pick(TASK_REFERENCES) },
        ...(third ? [{ operation: "complete", ...random.pick(TASK_REFERENCES) }] : []),
      ]);
      const tasks = Object.fromEntries(
        (await tasksOf()).map((t) => [t.text, { category: t.category, completed: t.completed }]),
      );
      expect(tasks, where).toEqual({
        [fresh]: { category: "errands", completed: third },
        [earlier]: { category: null, completed: false },
        ...Object.fromEntries(others.map((name) => [name, { category: null, completed: false }])),
      });
    } else {
      // Tasks found by one search, then completed ("them"); an earlier message's task is the
      // latest action. Three steps: a task made first, the search depending on it, then completion.
      const earlier = `earlier task ${round}`;
      await say([step("s1", "database", "create_task")], [{ operation: "create", text: earlier }]);
      const word = `topic${round}`;
      const found = Array.from({ length: 1 + random.int(3) }, (_, i) => `${word} part ${i}`);
      for (const [i, text] of found.entries())
        await stores(h, phone).taskRepo.create(phone, `found:${round}:${i}`, { text, timeZone: ZONE });
      const made = `${word} summary`;
      const steps = third
        ? [
            step("s1", "database", "create_task"),
            step("s2", "database", "list_tasks", { dependsOn: ["s1"] }),
            step("s3", "database", "complete_tasks", { dependsOn: ["s2"] }),
          ]
        : [
            step("s1", "database", "list_tasks"),
            step("s2", "database", "complete_tasks", { dependsOn: ["s1"] }),
          ];
      const searchId = third ? "s2" : "s1";
      const reference = random.pick(BULK_REFERENCES);
      const asked = await say(steps, [
        ...(third ? [{ operation: "create", text: made }] : []),
        { operation: "getAll", filters: { query: word } },
        { operation: "completeAll", ...("fromStep" in reference ? { fromStep: searchId } : reference) },
      ]);
      // Completing what a search found is asked about first, naming each task.
      const searched = third ? [...found, made] : found;
      for (const text of searched) expect(asked.text, where).toContain(text);
      expect(asked.text, where).not.toContain(earlier);
      await h.runtime.invokeMemoGraph(phone, "yes");
      const done = Object.fromEntries((await tasksOf()).map((t) => [t.text, t.completed]));
      expect(done, where).toEqual({
        ...Object.fromEntries(searched.map((text) => [text, true])),
        [earlier]: false,
        ...Object.fromEntries(others.map((name) => [name, false])),
      });
    }
  }
});
