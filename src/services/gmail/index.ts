import type pg from "pg";
import { PgOperationLedger } from "../../db/repositories/OperationLedger.js";
import { createGmailExecutor } from "../../graph/executors/GmailExecutor.js";
import type { CapabilityModule } from "../../graph/registry.js";
import { gmailResolver } from "../../graph/resolvers/GmailResolver.js";
import type { Logger } from "../../utils/logger.js";
import type { GoogleAccounts } from "../google/types.js";
import { GmailEntityResolver } from "../resolution/GmailEntityResolver.js";
import { GmailService } from "./GmailService.js";
import { gmailTemplate } from "./replies.js";
import type { UndoSettings } from "../undo/UndoJournal.js";

export { GmailService } from "./GmailService.js";

/** The `gmail` capability: the user's own Gmail, through their Google connection. */
export function createGmailCapability(options: {
  google: GoogleAccounts;
  pool: pg.Pool;
  logger: Logger;
  /** Milliseconds one Gmail request may take (default: GOOGLE_TIMEOUT_MS). */
  timeoutMs?: number;
  /** Journals changes as ones "undo" cannot take back (default: none). */
  undo?: UndoSettings;
}): CapabilityModule {
  const gmail = new GmailService(options.google, options.logger, {
    ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
  });
  const ledger = new PgOperationLedger(options.pool);
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
