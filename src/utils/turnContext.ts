import { AsyncLocalStorage } from "node:async_hooks";
import type { TriggerType } from "../types/index.js";

/**
 * What is known about the work being done, for everything that runs inside it: log lines carry
 * its trace id and hashed user, LLM calls are counted against the user's daily budget, traces
 * are labelled with its trigger.
 */
export interface TurnContext {
  /** The WhatsApp message id of a user turn, or a generated id (scheduler work, replays). */
  traceId: string;
  /** The user's normalized phone, when the work is about one user. */
  phone?: string;
  /** What started the work (default for inbound messages: user). */
  trigger: TriggerType;
  /**
   * Set once the planner let the turn use the LLM within the user's daily budget: the rest of the
   * turn (and the memory work it starts) may finish even if it crosses the budget on the way.
   */
  llmAdmitted?: boolean;
}

const storage = new AsyncLocalStorage<TurnContext>();

/** Runs `fn` with `context` visible to everything it calls or starts, background work included. */
export function withTurn<T>(context: TurnContext, fn: () => T): T {
  return storage.run(context, fn);
}

/** The context of the work now running, if any. */
export function currentTurn(): TurnContext | undefined {
  return storage.getStore();
}
