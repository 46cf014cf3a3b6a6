import type pg from "pg";
import { PgChunkRepository } from "./repositories/chunkRepository.js";
import { PgConversationHistory } from "./repositories/conversationHistory.js";
import { DeliveryLedger } from "./repositories/deliveryLedger.js";
import { PgDocumentRepository } from "./repositories/documentRepository.js";
import { PgEpisodeRepository } from "./repositories/episodeRepository.js";
import { HouseholdRepository } from "./repositories/householdRepository.js";
import { PgInboxRepository } from "./repositories/inboxRepository.js";
import { PgListRepository } from "./repositories/listRepository.js";
import { PgMemoryProfileRepository } from "./repositories/memoryProfileRepository.js";
import { PgMemoryRepository } from "./repositories/memoryRepository.js";
import { PgNoteRepository } from "./repositories/noteRepository.js";
import { PgOperationLedger } from "./repositories/operationLedger.js";
import { PgOutboundMessageRepository } from "./repositories/outboundMessageRepository.js";
import { SchedulerRepository } from "./repositories/schedulerRepository.js";
import { PgTaskRepository } from "./repositories/taskRepository.js";
import { PgUndoRepository } from "./repositories/undoRepository.js";
import { storageOf, type Queryable, type Storage } from "./transaction.js";

/** What long-term memory reads and writes, and erases on "forget". */
function memoryRepositories(db: Queryable) {
  return {
    history: new PgConversationHistory(db),
    profiles: new PgMemoryProfileRepository(db),
    chunks: new PgChunkRepository(db),
    facts: new PgMemoryRepository(db),
    episodes: new PgEpisodeRepository(db),
    notes: new PgNoteRepository(db),
    inbox: new PgInboxRepository(db),
    outbound: new PgOutboundMessageRepository(db),
  };
}
export type MemoryRepositories = ReturnType<typeof memoryRepositories>;

/** Long-term memory's storage on the pool. */
export function memoryStorage(pool: pg.Pool): Storage<MemoryRepositories> {
  return storageOf(pool, memoryRepositories);
}

/** What storing a document writes in one transaction: its row, its head note and its chunks. */
function documentRepositories(db: Queryable) {
  return { documents: new PgDocumentRepository(db), notes: new PgNoteRepository(db) };
}
export type DocumentRepositories = ReturnType<typeof documentRepositories>;

/** Documents' storage on the pool. */
export function documentStorage(pool: pg.Pool): Storage<DocumentRepositories> {
  return storageOf(pool, documentRepositories);
}

/** What the database capability changes: tasks and lists, its ledger entry and the undo journal. */
function databaseRepositories(db: Queryable) {
  return {
    tasks: new PgTaskRepository(db),
    lists: new PgListRepository(db),
    ledger: new PgOperationLedger(db),
    journal: new PgUndoRepository(db),
  };
}
export type DatabaseRepositories = ReturnType<typeof databaseRepositories>;

/** The database capability's storage on the pool. */
export function databaseStorage(pool: pg.Pool): Storage<DatabaseRepositories> {
  return storageOf(pool, databaseRepositories);
}

/** What the reminder service claims due work from, and the ledger of what it delivers. */
function reminderRepositories(db: Queryable) {
  return {
    schedule: new SchedulerRepository(db),
    deliveries: new DeliveryLedger(db),
  };
}
export type ReminderRepositories = ReturnType<typeof reminderRepositories>;

/** The reminder service's storage on the pool. */
export function reminderStorage(pool: pg.Pool): Storage<ReminderRepositories> {
  return storageOf(pool, reminderRepositories);
}

/** What a reminder's buttons change (the task and its undo journal entry), and the rung reminders a typed "done" means. */
function reminderActionRepositories(db: Queryable) {
  return {
    tasks: new PgTaskRepository(db),
    journal: new PgUndoRepository(db),
    deliveries: new DeliveryLedger(db),
  };
}
export type ReminderActionRepositories = ReturnType<typeof reminderActionRepositories>;

/** The reminder actions' storage on the pool. */
export function reminderActionStorage(pool: pg.Pool): Storage<ReminderActionRepositories> {
  return storageOf(pool, reminderActionRepositories);
}

/** What "undo" reads and restores: the undo journal, and the sent messages a quoted "undo" names. */
function undoRepositories(db: Queryable) {
  return {
    journal: new PgUndoRepository(db),
    outbound: new PgOutboundMessageRepository(db),
  };
}
export type UndoRepositories = ReturnType<typeof undoRepositories>;

/** The undo service's storage on the pool. */
export function undoStorage(pool: pg.Pool): Storage<UndoRepositories> {
  return storageOf(pool, undoRepositories);
}

/**
 * Households and the messages their changes send (the delivery ledger), written together, with
 * the lists and tasks a household shares (each read as the person asking sees them).
 */
function householdRepositories(db: Queryable) {
  return {
    households: new HouseholdRepository(db),
    deliveries: new DeliveryLedger(db),
    lists: new PgListRepository(db),
    tasks: new PgTaskRepository(db),
  };
}

/** The household service's storage on the pool. */
export function householdStorage(pool: pg.Pool) {
  return storageOf(pool, householdRepositories);
}
