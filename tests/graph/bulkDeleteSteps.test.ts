// A plan of several steps that each delete one thing deletes several things: Memo asks once,
// naming them, whatever the planner said about risk, and deletes nothing on "no".
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isTaskResolver, stores } from "../support/databaseScript.js";
import { createHarness, PHONE, plan, step, type Harness } from "../support/memoHarness.js";
import { lastUserMessageOf } from "../support/scriptedOpenAI.js";

const TASKS = ["Buy milk", "Call the plumber", "Book flights"];

describe("several delete steps in one plan", () => {
  let h: Harness;

  beforeAll(async () => {
    h = await createHarness();
  });

  afterAll(async () => {
    await h.close();
  });

  /** The test user's tasks are exactly TASKS again. */
  async function reset(): Promise<void> {
    const { tasks, taskRepo } = stores(h);
    await h.users.getOrCreate(PHONE, { timeZone: "Asia/Jerusalem", language: "en" });
    await taskRepo.delete(
      PHONE,
      (await tasks()).map((task) => task.id),
    );
    for (const text of TASKS)
      await taskRepo.create(PHONE, `seed:${text}:${Date.now()}`, { text, timeZone: "Asia/Jerusalem" });
  }

  /**
   * The planner plans one delete_task step per task (chained by dependsOn when `chained`, so each
   * runs in a group of its own); each resolver deletes the task its step names.
   */
  function scriptDeleteEach(chained = false): void {
    h.server!.enqueue(
      plan({
        riskLevel: "low",
        steps: TASKS.map((text, i) =>
          step(`s${i + 1}`, "database", "delete_task", {
            constraints: { target: text },
            dependsOn: chained && i > 0 ? [`s${i}`] : [],
          }),
        ),
      }),
    );
    h.server!.on(
      isTaskResolver,
      (req) => ({
        json: { operation: "delete", text: /"target":"([^"]+)"/.exec(lastUserMessageOf(req) ?? "")?.[1] },
      }),
      { times: TASKS.length },
    );
  }

  const texts = async () => (await stores(h).tasks()).map((t) => t.text).sort();

  it("asks once, naming every task, and deletes them all on yes", async () => {
    await reset();
    scriptDeleteEach();
    const question = await h.say("delete my tasks one by one");
    expect(question.status).toBe("waiting");
    expect(question.text).toContain("That deletes 3 things at once");
    for (const text of TASKS) expect(question.text).toContain(text);
    expect(await texts()).toEqual([...TASKS].sort());

    const done = await h.say("yes");
    expect(done.status).toBe("completed");
    expect(await texts()).toEqual([]);
  });

  it("asks before the first of several chained deletes runs, then runs them all", async () => {
    await reset();
    scriptDeleteEach(true);
    const question = await h.say("delete my tasks one after the other");
    expect(question.status).toBe("waiting");
    for (const text of TASKS) expect(question.text).toContain(text);
    expect(await texts()).toEqual([...TASKS].sort());
    expect((await h.say("yes")).status).toBe("completed");
    expect(await texts()).toEqual([]);
  });

  it("deletes nothing on no", async () => {
    await reset();
    scriptDeleteEach();
    expect((await h.say("delete my tasks one by one")).status).toBe("waiting");
    const answer = await h.say("no");
    expect(answer.status).toBe("completed");
    expect(await texts()).toEqual([...TASKS].sort());
  });

  it("deletes nothing of a chained plan on no", async () => {
    await reset();
    scriptDeleteEach(true);
    expect((await h.say("delete my tasks one after the other")).status).toBe("waiting");
    expect((await h.say("no")).status).toBe("completed");
    expect(await texts()).toEqual([...TASKS].sort());
  });
});
