import type { OperationLedger } from "../../db/repositories/OperationLedger.js";
import { createSecondBrainExecutor } from "../../graph/executors/SecondBrainExecutor.js";
import type { CapabilityModule } from "../../graph/registry.js";
import { memoryCommandResolver, secondBrainResolver } from "../../graph/resolvers/SecondBrainResolver.js";
import type { Logger } from "../../utils/logger.js";
import type { UndoSettings } from "../undo/UndoJournal.js";
import { SecondBrainEntityResolver } from "../resolution/SecondBrainEntityResolver.js";
import type { MemoryPort, NotesPort } from "./ports.js";
import { secondBrainTemplate } from "./replies.js";

/** The `second-brain` capability: the user's notes, and what Memo remembers about them. */
export function createSecondBrainCapability(options: {
  notes: NotesPort;
  memory: MemoryPort;
  ledger: OperationLedger;
  logger?: Logger;
  /** Journals note changes for "undo" (default: none). */
  undo?: UndoSettings;
}): CapabilityModule {
  return {
    capability: "second-brain",
    // The memory commands first: they claim their actions; every other action is a note operation.
    resolvers: [memoryCommandResolver, secondBrainResolver],
    executor: createSecondBrainExecutor(
      options.notes,
      options.memory,
      options.ledger,
      options.logger,
      options.undo,
    ),
    entityResolver: new SecondBrainEntityResolver(options.notes, options.memory),
    template: secondBrainTemplate,
    // "Forget everything" is confirmed in SecondBrainEntityResolver, naming what it erases.
    confirmsInCode: true,
  };
}
