import type { OperationLedger } from "../../../db/repositories/operationLedger.js";
import { createSecondBrainExecutor } from "./secondBrainExecutor.js";
import type { CapabilityModule } from "../../../types/capability.js";
import { memoryCommandResolver, secondBrainResolver } from "./secondBrainResolver.js";
import type { Logger } from "../../../utils/logger.js";
import type { UndoSettings } from "../../../services/undo/undoJournal.js";
import { SecondBrainEntityResolver } from "./secondBrainEntityResolver.js";
import type { DocumentsPort, MemoryPort, NotesPort } from "../../../services/secondBrain/ports.js";
import { secondBrainTemplate } from "./secondBrainReplies.js";

/** The `second-brain` capability: the user's notes, and what Memo remembers about them. */
export function createSecondBrainCapability(options: {
  notes: NotesPort;
  /** The user's documents, for "my documents" (default: none). */
  documents?: DocumentsPort;
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
      options.documents,
    ),
    entityResolver: new SecondBrainEntityResolver(options.notes, options.memory),
    template: secondBrainTemplate,
    // "Forget everything" is confirmed in SecondBrainEntityResolver, naming what it erases.
    confirmsInCode: true,
  };
}
