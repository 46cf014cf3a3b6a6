// The approve / edit / cancel question an entity resolver asks before an irreversible action
// (sending email), through invokeMemoGraph with a recording capability.
import { afterEach, describe, expect, it } from "vitest";
import type { EntityResolver } from "../../src/types/capability.js";
import { MAX_APPROVAL_EDITS } from "../../src/graph/nodes/entityResolutionNode.js";
import { recordingCapability } from "../support/recordingCapability.js";
import { createHarness, plan, step, type Harness } from "../support/memoHarness.js";

/** Asks approval for a "draft" (args.body); each edit appends the user's change to the body. */
function draftApprover(): EntityResolver & { revisions: string[] } {
  const revisions: string[] = [];
  const approve = (body: string) => ({
    status: "approve" as const,
    question: `Send to dana@example.com?\n${body}`,
    args: { body },
  });
  return {
    capability: "database",
    revisions,
    resolve: () => Promise.resolve(approve("Hi Dana")),
    applySelection: () => Promise.reject(new Error("no selection expected")),
    revise: (_step, args, change) => {
      revisions.push(change);
      return Promise.resolve(approve(`${String(args.body)} + ${change}`));
    },
  };
}

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function start(language: "en" | "he" = "en") {
  const approver = draftApprover();
  const db = recordingCapability({ entityResolver: approver, confirmsInCode: true });
  h = await createHarness({ capabilities: db.register });
  // A change the database contract declares and its capability asks about in code (confirmsInCode):
  // the planner's own question is skipped. An action no contract names would be asked about there.
  h.server!.enqueue(plan({ needsApproval: true, steps: [step("s1", "database", "update_task")] }));
  const asked = await h.say(language === "he" ? "שלח מייל לדנה" : "email Dana hi");
  return { approver, db, asked };
}

describe("approval before an irreversible action", () => {
  it("asks once (the planner's own yes/no is skipped) with approve, edit and cancel; approve runs exactly what was shown", async () => {
    const { db, asked } = await start();
    expect(asked).toMatchObject({
      status: "waiting",
      text: "Send to dana@example.com?\nHi Dana\n1. Approve\n2. Edit\n3. Cancel",
      expectedInput: "single_choice",
    });
    expect(asked.options).toEqual([
      { id: "approve", label: "Approve" },
      { id: "edit", label: "Edit" },
      { id: "cancel", label: "Cancel" },
    ]);
    expect(db.executed).toHaveLength(0);
    expect(await h!.say("Approve", { optionId: "approve" })).toMatchObject({ status: "completed" });
    expect(db.executed.map((e) => e.args)).toEqual([{ body: "Hi Dana" }]);
  });

  it("takes typed words: 'send' approves, 'cancel' cancels", async () => {
    const first = await start();
    expect((await h!.say("send")).status).toBe("completed");
    expect(first.db.executed).toHaveLength(1);
    await h!.close();
    h = undefined;

    const second = await start();
    expect(await h!.say("cancel")).toMatchObject({ status: "completed", text: "OK, I won't do that." });
    expect(second.db.executed).toHaveLength(0);
  });

  it("edit asks what to change, shows the revised version, and sends that one", async () => {
    const { approver, db } = await start();
    expect(await h!.say("edit")).toMatchObject({
      status: "waiting",
      text: "What should I change?",
      expectedInput: "free_text",
    });
    const revised = await h!.say("add that I'll be late");
    expect(revised).toMatchObject({
      status: "waiting",
      text: "Send to dana@example.com?\nHi Dana + add that I'll be late\n1. Approve\n2. Edit\n3. Cancel",
      expectedInput: "single_choice",
    });
    expect(approver.revisions).toEqual(["add that I'll be late"]);
    expect(db.executed).toHaveLength(0);
    await h!.say("yes");
    expect(db.executed.map((e) => e.args)).toEqual([{ body: "Hi Dana + add that I'll be late" }]);
  });

  it.each([
    "do not approve",
    "don't approve",
    "i dont approve",
    "not approved",
    "no, don't send",
    "לא אישור",
    "בלי אישור",
    "approve?? no",
  ])("%s is asked again, never taken as approval", async (reply) => {
    const { db } = await start();
    const again = await h!.say(reply);
    expect(again.status).toBe("waiting");
    expect(db.executed).toHaveLength(0);
  });

  it("in Hebrew: the options are localized and שלח approves", async () => {
    const { db, asked } = await start("he");
    expect(asked.options?.map((o) => o.label)).toEqual(["אישור", "עריכה", "ביטול"]);
    await h!.say("שלח");
    expect(db.executed).toHaveLength(1);
  });

  it(`stops after ${MAX_APPROVAL_EDITS} edits without acting`, async () => {
    const { db } = await start();
    for (let i = 0; i < MAX_APPROVAL_EDITS; i++) {
      await h!.say("edit");
      await h!.say(`change ${i}`);
    }
    const last = await h!.say("edit");
    expect(last.status).toBe("completed");
    expect(last.text).toMatch(/left it unsent/);
    expect(db.executed).toHaveLength(0);
  });
});
