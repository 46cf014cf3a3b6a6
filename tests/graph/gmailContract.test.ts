// The gmail capability's contract at the one place its types are erased: an operation whose
// arguments do not satisfy it fails cleanly and nothing reaches Gmail, and every plan action it
// declares reaches its resolver.
import { afterEach, describe, expect, it } from "vitest";
import { actionNames } from "../../src/contracts/contract.js";
import { gmailContract } from "../../src/contracts/gmail.js";
import { PgOperationLedger } from "../../src/db/repositories/operationLedger.js";
import { createGmailCapability } from "../../src/graph/capabilities/gmail/gmailCapability.js";
import type { CapabilityRegistry } from "../../src/graph/capabilities/registry.js";
import { t } from "../../src/messages/index.js";
import { PLANNER_SYSTEM_PROMPT } from "../../src/prompts/plannerPrompt.js";
import type { MemoState } from "../../src/types/state.js";
import { pgliteBackend } from "../support/db.js";
import { FakeGmail } from "../support/fakeGmail.js";
import { captureLogs } from "../support/logs.js";
import { createHarness, PHONE, step, type Harness } from "../support/memoHarness.js";

let h: Harness | undefined;
let gmail: FakeGmail | undefined;
afterEach(async () => {
  await h?.close();
  await gmail?.close();
  h = undefined;
  gmail = undefined;
});

/** Memo with the gmail capability over the Gmail stand-in, and its registry. */
async function gmailRegistry(): Promise<{ registry: CapabilityRegistry; gmail: FakeGmail }> {
  const fake = await FakeGmail.start();
  gmail = fake;
  const db = await pgliteBackend.create();
  let registry: CapabilityRegistry | undefined;
  h = await createHarness({
    db,
    llm: "none",
    capabilities: (r) => {
      registry = r;
      r.register(
        createGmailCapability({
          google: fake.accounts(),
          ledger: new PgOperationLedger(db.pool),
          logger: captureLogs().logger,
        }),
      );
    },
  });
  await h.users.getOrCreate(PHONE, { timeZone: "Asia/Jerusalem" });
  await h.users.update(PHONE, { googleConnected: true });
  return { registry: registry!, gmail: fake };
}

describe("the gmail contract", () => {
  it("refuses an operation whose arguments do not satisfy it: logged, the generic failure, nothing sent or changed", async () => {
    const { registry, gmail } = await gmailRegistry();
    const invoice = gmail.add({ from: "Dana Levi <dana@example.com>", subject: "Invoice" });
    const { logger, lines } = captureLogs();
    const executor = registry.executorFor("gmail")!;
    const context = (stepId: string) => ({
      state: { traceId: "turn-1", user: { timezone: "Asia/Jerusalem" } } as unknown as MemoState,
      llm: null,
      logger,
      now: h!.clock.now(),
      language: "en" as const,
      phone: PHONE,
      answers: [],
      dependencies: [],
      operationId: `turn-1:${stepId}`,
      step: step(stepId, "gmail", "send_email"),
    });

    // A recipient must be a list of addresses: one string is a defect of the code that built the step.
    const draft = { to: "dana@example.com", subject: "Hi", body: "Hello" };
    const outcome = await executor.execute("gmail.send", { operation: "send", draft }, context("s1"));
    expect(outcome).toEqual({
      success: false,
      errorCode: "INVALID_OPERATION",
      error: t("en", "internalError"),
    });
    expect(lines()).toContainEqual(
      expect.objectContaining({ event: "INVALID_OPERATION", functionName: "gmail.send", stepId: "s1" }),
    );
    // Emails to archive are named by a list of ids; an operation the contract does not declare is refused too.
    const archive = await executor.execute(
      "gmail.archive",
      { operation: "archive", messageIds: invoice.id },
      context("s2"),
    );
    expect(archive.errorCode).toBe("INVALID_OPERATION");
    const unknown = await executor.execute("gmail.snooze", { messageIds: [invoice.id] }, context("s3"));
    expect(unknown.errorCode).toBe("INVALID_OPERATION");
    expect(gmail.sent).toHaveLength(0);
    expect(gmail.changes()).toEqual([]);

    // The same send with arguments as the contract says goes out, once.
    const sent = await executor.execute(
      "gmail.send",
      { operation: "send", draft: { ...draft, to: ["dana@example.com"] } },
      context("s4"),
    );
    expect(sent).toMatchObject({
      success: true,
      data: { kind: "sent", op: "send", to: ["dana@example.com"], subject: "Hi" },
    });
    expect(gmail.sent).toHaveLength(1);
    expect(gmail.sent[0]).toMatchObject({ to: "dana@example.com", subject: "Hi", body: "Hello" });
  });

  it("routes every plan action it declares to its resolver, and the planner prompt names each", async () => {
    const { registry } = await gmailRegistry();
    const actions = actionNames(gmailContract, "gmail");
    expect(actions).toHaveLength(Object.keys(gmailContract.operations).length);
    for (const action of actions) {
      expect(registry.resolverFor(step("s1", "gmail", action))?.name).toBe("GmailResolver");
      expect(PLANNER_SYSTEM_PROMPT).toContain(`"${action}"`);
    }
  });
});
