import { PgOperationLedger } from "../../src/db/repositories/operationLedger.js";
import { PgUndoRepository } from "../../src/db/repositories/undoRepository.js";
import { createGmailCapability } from "../../src/graph/capabilities/gmail/gmailCapability.js";
import type { GmailOperation } from "../../src/prompts/gmailPrompt.js";
import { pgliteBackend } from "../support/db.js";
import { FakeGmail } from "../support/fakeGmail.js";
import { captureLogs } from "../support/logs.js";
import { createHarness, PHONE, plan, step, type Harness } from "../support/memoHarness.js";
import { systemPromptOf, type RecordedRequest } from "../support/scriptedOpenAI.js";

/** Whether a recorded LLM request was GmailResolver's, the draft reviser's, or the thread summarizer's. */
export const isGmailResolver = (req: RecordedRequest) =>
  (systemPromptOf(req) ?? "").includes("into an email operation");
export const isReviser = (req: RecordedRequest) =>
  (systemPromptOf(req) ?? "").includes("You revise an email draft");
export const isSummarizer = (req: RecordedRequest) =>
  (systemPromptOf(req) ?? "").includes("You summarize an email conversation");

/**
 * Memo with the gmail capability over the Gmail stand-in; the user is connected to Google unless
 * said. `timeoutMs`: how long a Gmail request may take (default: GOOGLE_TIMEOUT_MS).
 */
export async function gmailHarness(
  options: { connected?: boolean; timeoutMs?: number; env?: Record<string, string> } = {},
) {
  const gmail = await FakeGmail.start();
  const db = await pgliteBackend.create();
  const capabilityLogs = captureLogs();
  const h = await createHarness({
    db,
    ...(options.env ? { env: options.env } : {}),
    capabilities: (registry) =>
      registry.register(
        createGmailCapability({
          google: gmail.accounts(),
          ledger: new PgOperationLedger(db.pool),
          logger: capabilityLogs.logger,
          ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
          // As the runtime does: a change in Gmail is one "undo" says it cannot take back.
          undo: { journal: new PgUndoRepository(db.pool), windowMs: 600_000 },
        }),
      ),
  });
  await h.users.getOrCreate(PHONE, { timeZone: "Asia/Jerusalem" });
  await h.users.update(PHONE, { googleConnected: options.connected ?? true });
  return {
    h,
    gmail,
    /** Every log line, Memo's and the capability's. */
    logs: () => [...h.logs(), ...capabilityLogs.lines()],
    async close() {
      await h.close();
      await gmail.close();
    },
  };
}

/** Scripts one gmail turn: the planner picks `action` on gmail (planner flags in `planExtra`), then the resolver answers `op`. */
export function scriptGmailTurn(
  h: Harness,
  action: string,
  op: Partial<GmailOperation>,
  planExtra: Parameters<typeof plan>[0] = {},
): void {
  h.server!.enqueue(plan({ steps: [step("s1", "gmail", action)], ...planExtra }), { json: op });
}
