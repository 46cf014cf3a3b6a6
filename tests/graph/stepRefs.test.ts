// Plans whose steps hand their results to each other (issue 33, D13, spec 003 refs): a step that
// depends on another acts on exactly what that step produced, never on the previous message's item,
// which in every test here exists and must stay untouched.
import { afterEach, describe, expect, it } from "vitest";
import { createHarness, plan, step, type Harness } from "../support/memoHarness.js";
import { isListResolver, isTaskResolver, stores } from "../support/databaseScript.js";
import { lastUserMessageOf, systemPromptOf } from "../support/scriptedOpenAI.js";
import type { ListOperation } from "../../src/prompts/listPrompt.js";
import type { TaskOperation } from "../../src/prompts/taskPrompt.js";

let h: Harness;
afterEach(async () => h?.close());

type Op = Partial<ListOperation> | Partial<TaskOperation>;

/** One message whose plan is `steps`; the resolvers answer `ops` in the order the steps run. */
function scriptPlan(harness: Harness, steps: ReturnType<typeof step>[], ...ops: Op[]): void {
  harness.server!.enqueue(plan({ steps }), ...ops.map((json) => ({ json })));
}

const itemsOf = async (harness: Harness, name: string) =>
  (await stores(harness).lists()).find((l) => l.name === name)?.items.map((i) => i.text);

/** A list made by an earlier message: the latest action every test's second step must not touch. */
async function earlierList(harness: Harness, name: string, item: string): Promise<void> {
  scriptPlan(harness, [step("s1", "database", "create_list")], {
    operation: "create",
    listName: name,
    items: [item],
  });
  await harness.say(`create a list ${name} with ${item}`);
}

const createThenAdd = (addExtra: Record<string, unknown> = {}) => [
  step("s1", "database", "create_list"),
  step("s2", "database", "add_list_item", { dependsOn: ["s1"], ...addExtra }),
];

describe("a step that depends on another acts on what that step produced", () => {
  for (const [how, reference] of [
    ['"it" as the name', { listName: "it" }],
    ['"@1"', { listId: "@1" }],
    ["no name at all", {}],
    ["fromStep", { fromStep: "s1" }],
  ] as const) {
    it(`create a list and add to it (${how}): the new list, not the previous message's`, async () => {
      h = await createHarness();
      await earlierList(h, "groceries", "milk");
      scriptPlan(
        h,
        createThenAdd(),
        { operation: "create", listName: "camping" },
        { operation: "addItem", items: ["tent", "lamp"], ...reference },
      );
      const reply = await h.say("create a list camping and add a tent and a lamp to it");
      expect(await itemsOf(h, "camping")).toEqual(["tent", "lamp"]);
      expect(await itemsOf(h, "groceries")).toEqual(["milk"]);
      expect(reply.text).toContain("*camping*");
    });
  }

  it("in Hebrew: צור רשימה קמפינג ותוסיף לה אוהל ופנס", async () => {
    h = await createHarness();
    await earlierList(h, "קניות", "חלב");
    scriptPlan(
      h,
      createThenAdd(),
      { operation: "create", listName: "קמפינג" },
      { operation: "addItem", listName: "זה", items: ["אוהל", "פנס"] },
    );
    await h.say("צור רשימה קמפינג ותוסיף לה אוהל ופנס");
    expect(await itemsOf(h, "קמפינג")).toEqual(["אוהל", "פנס"]);
    expect(await itemsOf(h, "קניות")).toEqual(["חלב"]);
  });

  it("shows the resolver the earlier step and its result as data, with the step's dependsOn", async () => {
    h = await createHarness();
    await earlierList(h, "groceries", "milk");
    scriptPlan(
      h,
      createThenAdd(),
      { operation: "create", listName: "camping" },
      { operation: "addItem", fromStep: "s1", items: ["tent"] },
    );
    await h.say("create a list camping and add a tent to it");
    const second = h.server!.requests.filter(isListResolver).at(-1)!;
    const message = lastUserMessageOf(second) ?? "";
    expect(message).toContain(
      '## Earlier steps of this message (done just now, nearest first)\ns1 lists.create: list "camping"',
    );
    expect(message).toContain('dependsOn: ["s1"]');
    expect(systemPromptOf(second)).toContain("fromStep");
  });

  it("a step that names another list explicitly acts on that list, not the earlier step's", async () => {
    h = await createHarness();
    await earlierList(h, "groceries", "milk");
    scriptPlan(
      h,
      createThenAdd(),
      { operation: "create", listName: "camping" },
      { operation: "addItem", listName: "groceries", items: ["bread"] },
    );
    await h.say("create a list camping and add bread to my groceries list");
    expect(await itemsOf(h, "groceries")).toEqual(["milk", "bread"]);
    expect(await itemsOf(h, "camping")).toEqual([]);
  });

  it("add a task and set a nudge on it: the nudge is on the new task", async () => {
    h = await createHarness();
    h.server!.enqueue(plan({ steps: [step("s1", "database", "create_task")] }), {
      json: { operation: "create", text: "pay the electricity bill", dueDate: "2026-03-06T09:00" },
    });
    await h.say("remind me tomorrow at 9 to pay the electricity bill");
    scriptPlan(
      h,
      [step("s1", "database", "create_task"), step("s2", "database", "update_task", { dependsOn: ["s1"] })],
      { operation: "create", text: "call Dana", dueDate: "2026-03-05T18:00" },
      { operation: "update", taskId: "@1", reminderRecurrence: { type: "nudge", interval: "10 minutes" } },
    );
    await h.say("remind me at 18:00 to call Dana and nudge me about it every 10 minutes");
    const tasks = await stores(h).tasks();
    const byText = (text: string) => tasks.find((task) => task.text === text);
    expect(byText("call Dana")?.recurrence).toMatchObject({ type: "nudge", intervalMinutes: 10 });
    expect(byText("pay the electricity bill")?.recurrence).toBeNull();
    expect(h.server!.requests.filter(isTaskResolver)).toHaveLength(3);
  });
});

describe("when the step a later one depends on does not succeed", () => {
  it("finds nothing: the dependent step does not run, and the reply says so", async () => {
    h = await createHarness();
    await earlierList(h, "groceries", "milk");
    scriptPlan(
      h,
      [step("s1", "database", "show_list"), step("s2", "database", "add_list_item", { dependsOn: ["s1"] })],
      { operation: "get", listName: "hiking gear" },
    );
    const reply = await h.say("open my hiking gear list and add a rope to it");
    expect(reply.text).toContain("So I didn't add the item: I couldn't find the list “hiking gear”.");
    expect(await itemsOf(h, "groceries")).toEqual(["milk"]);
    // The dependent step's resolver was never asked.
    expect(h.server!.requests.filter(isListResolver)).toHaveLength(2);
  });

  it("is declined at its confirmation: the dependent step does not run (Hebrew)", async () => {
    h = await createHarness();
    await earlierList(h, "קניות", "חלב");
    await earlierList(h, "ישנה", "דבר");
    scriptPlan(
      h,
      [step("s1", "database", "delete_list"), step("s2", "database", "create_list", { dependsOn: ["s1"] })],
      { operation: "delete", listName: "ישנה" },
    );
    const asked = await h.say("תמחק את הרשימה ישנה ותיצור במקומה רשימה חדשה");
    expect(asked.text).toContain("ישנה");
    const reply = await h.say("לא");
    expect(reply.text).toContain("לכן לא המשכתי ליצור את הרשימה, כי בחרת לא למחוק את הרשימה “ישנה”.");
    expect((await stores(h).lists()).map((l) => l.name).sort()).toEqual(["ישנה", "קניות"]);
  });
});
