import type { UserRepository } from "../db/repositories/userRepository.js";
import type { GoogleConnector } from "../services/google/types.js";
import type { LLMService } from "../types/llm.js";
import type { MemoryService } from "../services/memory/index.js";
import type { LongTermRead } from "../services/memory/memoryService.js";

/** Long-term memory as the graph uses it: context for the planner, background work after a turn. */
interface LongTermContext {
  /**
   * The rolling summary and the most relevant remembered facts, within their token budgets; from
   * `read` when the turn's first read brought them (`MemoryService.beginTurn`).
   */
  contextFor(
    phone: string,
    message: string,
    read?: LongTermRead | null,
    timeZone?: string,
  ): Promise<{ text: string | undefined }>;
  /**
   * Starts the background work after a turn (summary, facts, episodes, with those of the tasks it
   * completed); never throws, never waits.
   */
  schedule(phone: string, windowSize: number, completed?: readonly CompletedTask[]): unknown;
  /** What the rules will remember of a message (no model): a no-LLM turn says so. */
  factsInMessage(message: string): string[];
}
import type { LLMBudget } from "../services/llm/llmBudget.js";
import type { CompletedTask } from "../services/memory/episodes.js";
import type { Logger } from "../utils/logger.js";
import type { UndoService } from "../services/undo/undoJournal.js";
import type { CapabilityRegistry } from "./capabilities/registry.js";
import type { PlanTiers } from "../config/planTiers.js";
import type { SavedTexts } from "../services/documents/savedText.js";

/** Everything the graph's nodes use, injected so tests replace any of it. */
export interface MemoGraphDeps {
  users: UserRepository;
  memory: MemoryService;
  /** null when no LLM is configured: turns that need one get a short explanation. */
  llm: LLMService | null;
  capabilities: CapabilityRegistry;
  logger: Logger;
  /** Epoch milliseconds (default: Date.now). */
  clock: () => number;
  /** Ids for HITL questions (default: crypto.randomUUID). */
  newId: () => string;
  /** Time zone of users seen for the first time (default: Asia/Jerusalem). */
  defaultTimeZone: string;
  /** Everyday commands skip the LLM planner and resolvers (default: true; help and greetings always do). */
  fastPath?: boolean;
  /** Long-term memory (default: none, the planner sees only the recent window). */
  longTerm?: LongTermContext;
  /** The user's Google connection: the capability check offers a connect link (default: none, Google is not set up). */
  google?: GoogleConnector;
  /** The per-user daily LLM budget: once spent, the planner answers only fast-path commands (default: none, no limit). */
  budget?: Pick<LLMBudget, "admit" | "dailyUsdOf">;
  /** What each plan tier includes (PLAN_TIERS): a step of a capability outside the user's tier is refused (default: every tier has everything). */
  planTiers?: PlanTiers;
  /** Whether an "undo" quoting a message names the latest change (default: none, nothing is journaled). */
  undo?: Pick<UndoService, "quotesLatest">;
  /** Keeps a forwarded or pasted text as a note on "save it", with its offer (default: none, "save it" is planned as ever). */
  savedTexts?: Pick<SavedTexts, "save">;
  /**
   * An answer to a question older than its time to live is refused as expired (default: true).
   * Off only in the dev server's graph: Studio forks and resumes questions long after they were asked.
   */
  questionsExpire?: boolean;
}
