import type { OperationLedger } from "../../../db/repositories/operationLedger.js";
import { createGmailExecutor } from "./gmailExecutor.js";
import type { CapabilityModule } from "../../../types/capability.js";
import { gmailResolver } from "./gmailResolver.js";
import type { Logger } from "../../../utils/logger.js";
import type { GoogleAccounts } from "../../../services/google/types.js";
import { GmailEntityResolver } from "./gmailEntityResolver.js";
import { GmailService } from "../../../services/gmail/gmailService.js";
import { gmailTemplate } from "./gmailReplies.js";
import type { UndoSettings } from "../../../services/undo/undoJournal.js";

/** The `gmail` capability: the user's own Gmail, through their Google connection. */
export function createGmailCapability(options: {
  google: GoogleAccounts;
  /** Where each Gmail change's outcome is recorded, so a re-run turn does not repeat it. */
  ledger: OperationLedger;
  logger: Logger;
  /** Milliseconds one Gmail request may take (default: GOOGLE_TIMEOUT_MS). */
  timeoutMs?: number;
  /** Journals changes as ones "undo" cannot take back (default: none). */
  undo?: UndoSettings;
}): CapabilityModule {
  const gmail = new GmailService(options.google, options.logger, {
    ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
  });
  const { ledger } = options;
  return {
    capability: "gmail",
    resolvers: [gmailResolver],
    executor: createGmailExecutor(gmail, ledger, options.logger, options.undo),
    entityResolver: new GmailEntityResolver(gmail, ledger),
    template: gmailTemplate,
    // send, reply, forward and delete always ask approve / edit / cancel in GmailEntityResolver.
    confirmsInCode: true,
  };
}
