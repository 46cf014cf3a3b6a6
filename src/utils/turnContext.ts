import { AsyncLocalStorage } from "node:async_hooks";
import type { PlanTier, TriggerType } from "../types/index.js";

/**
 * A turn's LLM usage, its calls added up, handed at the turn's end to the work that writes it with
 * a statement of its own (TurnContext.usageCarrier); the budget counts it as unwritten until told.
 */
export interface CarriedUsage {
  phone: string;
  /** When the latest of the calls ended: the day they count on. */
  at: Date;
  calls: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  /** Tells the budget it was written: `day` is the user's day with it (null: no such user). */
  written(day: { day: string; costUsd: number } | null): void;
  /** Gives it back unwritten: the budget writes it on its own. */
  unwritten(): void;
}

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
  /**
   * The user's LLM spend on their local day as the transport read it with the user, at `readAt`
   * (epoch ms): the budget's first look in this turn takes it instead of reading it again.
   */
  llmSpend?: { day: string; costUsd: number; readAt: number; planTier?: PlanTier };
  /**
   * Set by work that writes the turn's LLM usage itself after the turn (the inbox worker, with the
   * statement that ends the message): at the turn's end the budget leaves the usage here instead of
   * writing it, and whoever takes it tells the budget how the write went (see CarriedUsage).
   */
  usageCarrier?: { usage?: CarriedUsage };
  /** Set by withTurn once the work itself settled (background work it started may still run). */
  ended?: boolean;
  /** Told once when the work settles (onTurnEnd); e.g. the turn's LLM usage is written then. */
  endHooks?: (() => void)[];
}

const storage = new AsyncLocalStorage<TurnContext>();

/** Marks the turn ended and tells its end hooks, each once; a hook's fault is its own. */
function end(context: TurnContext): void {
  context.ended = true;
  const hooks = context.endHooks ?? [];
  context.endHooks = [];
  for (const hook of hooks) {
    try {
      hook();
    } catch {
      // An end hook (a usage write) never fails the turn it ends.
    }
  }
}

/**
 * Runs `fn` with `context` visible to everything it calls or starts, background work included.
 * When `fn` settles (its promise, or its return) the turn ends: its end hooks run. Running inside
 * the same context again (a nested call) does not end it early.
 */
export function withTurn<T>(context: TurnContext, fn: () => T): T {
  if (storage.getStore() === context) return fn();
  let result: T;
  try {
    result = storage.run(context, fn);
  } catch (error) {
    end(context);
    throw error;
  }
  if (result instanceof Promise) {
    return result.finally(() => end(context)) as T;
  }
  end(context);
  return result;
}

/**
 * Runs `fn`, background work a turn started (a memory round), in a context of its own: the same
 * trace, user, trigger and LLM admission as `turn`, but its own end, so
 * what it spends is written when it settles, never carried with the turn's own usage (whether it
 * ends before or after the turn). Without a turn, just runs `fn`.
 */
export function inBackgroundOfTurn<T>(fn: () => Promise<T>, turn: TurnContext | undefined): Promise<T> {
  if (!turn) return fn();
  const { traceId, phone, trigger, llmAdmitted } = turn;
  return withTurn(
    {
      traceId,
      trigger,
      ...(phone !== undefined ? { phone } : {}),
      ...(llmAdmitted !== undefined ? { llmAdmitted } : {}),
    },
    fn,
  );
}

/** The context of the work now running, if any. */
export function currentTurn(): TurnContext | undefined {
  return storage.getStore();
}

/**
 * Calls `hook` once when the current turn's work settles; false (nothing registered) when no
 * turn is running or it has already ended (background work after its reply).
 */
export function onTurnEnd(hook: () => void): boolean {
  const turn = storage.getStore();
  if (!turn || turn.ended) return false;
  (turn.endHooks ??= []).push(hook);
  return true;
}
