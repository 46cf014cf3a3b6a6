import type { PlanTiers } from "../../config/planTiers.js";
import type { DailySpend, PgLlmUsageRepository } from "../../db/repositories/llmUsageRepository.js";
import type { PlanTier } from "../../types/user.js";
import type { LLMNode, LLMUsage } from "../../types/llm.js";
import type { Logger } from "../../utils/logger.js";
import { phoneTag } from "../../utils/phone.js";
import { currentTurn, onTurnEnd, type CarriedUsage, type TurnContext } from "../../utils/turnContext.js";
import { LLMError } from "./llmError.js";
import type { LLMCallRecord } from "./observedLlmService.js";

/** How long a user's spend read from the database is trusted before it is read again. */
const FRESH_MS = 5_000;

interface Spend {
  /** The user's local day the amount is for (YYYY-MM-DD). */
  day: string;
  costUsd: number;
  readAt: number;
  /** The user's plan tier, once a reading told it. */
  tier?: PlanTier;
}

/** Calls of one user not yet written: a turn's, added up. */
interface PendingUsage {
  phone: string;
  calls: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  /** When the latest of them ended (epoch ms): the day they count on. */
  at: number;
  /** The nodes (or "speech") that made them, for a failed write's log line. */
  nodes: string[];
}

/** What a call adds to the user's day: its tokens and cost, and what made it. */
type CountedCall = Pick<LLMUsage, "inputTokens" | "outputTokens" | "costUsd"> & { node: string };

function add(pending: PendingUsage, usage: CountedCall, at: number): void {
  pending.calls += 1;
  pending.inputTokens += usage.inputTokens;
  pending.outputTokens += usage.outputTokens;
  pending.costUsd += usage.costUsd;
  pending.at = at;
  pending.nodes.push(usage.node);
}

export interface LLMBudgetOptions {
  /** Where each user's daily usage is kept. */
  usage: PgLlmUsageRepository;
  logger: Logger;
  /** USD a user's turns may spend on LLM calls per day of their own calendar; 0 means no limit. */
  dailyUsd: number;
  /** Each tier's own daily budget, where it sets one (PLAN_TIERS; default: `dailyUsd` for every tier). */
  planTiers?: PlanTiers;
  /** Epoch milliseconds (default: Date.now). */
  clock?: () => number;
}

/**
 * The per-user daily LLM budget (LLM_DAILY_BUDGET_USD): every call made for a user (their turns,
 * their digest, the memory work after their turns) is added to their day in `llm_usage_daily`
 * (a turn's calls together, in one write when it ends, or with the statement that ends its inbox
 * message when the inbox worker carries them; calls outside a turn one by one);
 * once the day's cost reaches the budget, calls for that user are refused before they are made
 * and the planner answers only fast-path commands, saying why. The day is the user's local day,
 * so the budget renews at their midnight. A plan tier may have a budget of its own (PLAN_TIERS),
 * read with the spend (users.plan_tier). Several instances share the table; each trusts its
 * reading for a few seconds, so a burst may overshoot by a call or two, never by a day's worth.
 */
export class LLMBudget {
  private readonly spend = new Map<string, Spend>();
  /** Ledger writes still running (awaited by `idle` before the pool closes). */
  private readonly writes = new Set<Promise<void>>();
  /** The calls of each running turn, written when it ends. */
  private readonly turns = new WeakMap<TurnContext, PendingUsage>();
  /** Per user, the cost of their turns' calls not yet written (added to what is read). */
  private readonly unwritten = new Map<string, number>();
  /** Per user, writes running of calls not counted in `unwritten` (background calls, one by one). */
  private readonly uncountedWrites = new Map<string, number>();
  private readonly clock: () => number;

  constructor(private readonly options: LLMBudgetOptions) {
    this.clock = options.clock ?? Date.now;
  }

  /** Whether a limit is set at all, for any tier. */
  get enabled(): boolean {
    const { planTiers } = this.options;
    const tierLimits = planTiers ? Object.values(planTiers).map((plan) => plan.dailyBudgetUsd ?? 0) : [];
    return [this.options.dailyUsd, ...tierLimits].some((usd) => usd > 0);
  }

  /** Whether some tier has a budget of its own: then the user's tier must be known to judge. */
  private get tiered(): boolean {
    const { planTiers } = this.options;
    return !!planTiers && Object.values(planTiers).some((plan) => plan.dailyBudgetUsd !== null);
  }

  /** The daily budget in USD of a tier (0: none); without a tier, the default one. */
  dailyUsdOf(tier?: PlanTier): number {
    const own = tier ? this.options.planTiers?.[tier].dailyBudgetUsd : undefined;
    return own ?? this.options.dailyUsd;
  }

  /**
   * Observer of every LLM call: adds its cost to the current user's day (when the work is a user's).
   * A turn's calls are added up and written once, when the turn ends (one upsert per turn, or none
   * of its own when the turn's work carries it, see `flush`); a background memory round is a turn
   * of its own for this (inBackgroundOfTurn); calls outside any turn are written one by one.
   */
  readonly observer = (call: LLMCallRecord): void => {
    if (call.usage) this.count(call.usage);
  };

  /**
   * A spoken answer (text to speech): its cost added to the current user's day with the turn's
   * LLM calls, as the observer adds them (one call, no tokens).
   */
  readonly countSpeech = (costUsd: number): void => {
    this.count({ node: "speech", inputTokens: 0, outputTokens: 0, costUsd });
  };

  private count(usage: CountedCall): void {
    const turn = currentTurn();
    const phone = turn?.phone;
    if (!turn || !phone) return;
    const cached = this.spend.get(phone);
    if (cached) cached.costUsd += usage.costUsd;
    const at = this.clock();
    const open = this.turns.get(turn);
    if (open && open.phone === phone) {
      add(open, usage, at);
      this.unwritten.set(phone, (this.unwritten.get(phone) ?? 0) + usage.costUsd);
      return;
    }
    const pending: PendingUsage = {
      phone,
      calls: 0,
      inputTokens: 0,
      outputTokens: 0,
      costUsd: 0,
      at,
      nodes: [],
    };
    add(pending, usage, at);
    if (!turn.ended && onTurnEnd(() => this.flush(turn))) {
      this.turns.set(turn, pending);
      this.unwritten.set(phone, (this.unwritten.get(phone) ?? 0) + usage.costUsd);
      return;
    }
    this.write(pending);
  }

  /**
   * Writes what the ended turn's calls cost, as one record; or, when the turn's work carries it
   * (TurnContext.usageCarrier), hands it over to be written with that work's own statement.
   */
  private flush(turn: TurnContext): void {
    const pending = this.turns.get(turn);
    if (!pending) return;
    this.turns.delete(turn);
    const carrier = turn.usageCarrier;
    if (carrier && !carrier.usage) carrier.usage = this.handOver(pending);
    else this.write(pending, true);
  }

  /**
   * The turn's usage for its carrier. Its cost stays in `unwritten`, and `idle` waits, until the
   * carrier says it was written (then the returned day is kept, as after a write of its own) or gives
   * it back (then it is written as ever); either at most once, whatever comes after.
   */
  private handOver(pending: PendingUsage): CarriedUsage {
    const { phone } = pending;
    let close!: () => void;
    const open = new Promise<void>((resolve) => (close = resolve));
    this.writes.add(open);
    let settled = false;
    const end = (then: () => void): void => {
      if (settled) return;
      settled = true;
      then();
      this.writes.delete(open);
      close();
    };
    return {
      phone,
      at: new Date(pending.at),
      calls: pending.calls,
      inputTokens: pending.inputTokens,
      outputTokens: pending.outputTokens,
      costUsd: pending.costUsd,
      written: (day) =>
        end(() => {
          this.settle(phone, pending.costUsd);
          if (day) this.remember(phone, day, this.clock());
        }),
      unwritten: () => end(() => this.write(pending, true)),
    };
  }

  /** Adds `usage` to its user's day; `counted` when its cost is in `unwritten` until written. */
  private write(usage: PendingUsage, counted = false): void {
    const { phone } = usage;
    if (!counted) this.uncountedWrites.set(phone, (this.uncountedWrites.get(phone) ?? 0) + 1);
    const write = this.options.usage
      .add(phone, new Date(usage.at), usage)
      .then((day) => {
        if (counted) this.settle(phone, usage.costUsd);
        if (day) this.remember(phone, day, this.clock());
      })
      .catch((error: unknown) => {
        if (counted) this.settle(phone, usage.costUsd);
        this.options.logger.error(
          { err: error, user: phoneTag(phone), nodes: usage.nodes, calls: usage.calls },
          "could not record LLM usage",
        );
      })
      .finally(() => {
        this.writes.delete(write);
        if (counted) return;
        const left = (this.uncountedWrites.get(phone) ?? 1) - 1;
        if (left > 0) this.uncountedWrites.set(phone, left);
        else this.uncountedWrites.delete(phone);
      });
    this.writes.add(write);
  }

  /** Keeps the user's spend as read (or returned by a write) at `readAt`; returns it. */
  private remember(phone: string, day: DailySpend, readAt: number): Spend {
    // What running turns of this process spent and have not written yet counts too.
    const costUsd = day.costUsd + (this.unwritten.get(phone) ?? 0);
    // A write's answer does not carry the tier: the one read before still holds.
    const tier = day.planTier ?? this.spend.get(phone)?.tier;
    const spend: Spend = { day: day.day, costUsd, readAt, ...(tier ? { tier } : {}) };
    this.spend.set(phone, spend);
    return spend;
  }

  /** Takes a written (or lost) turn's cost off what is still unwritten for the user. */
  private settle(phone: string, costUsd: number): void {
    const left = (this.unwritten.get(phone) ?? 0) - costUsd;
    if (left > 1e-12) this.unwritten.set(phone, left);
    else this.unwritten.delete(phone);
  }

  /** Resolves once every usage record started so far is written (shutdown, tests). */
  async idle(): Promise<void> {
    while (this.writes.size > 0) await Promise.allSettled([...this.writes]);
  }

  /** What the user's calls cost today (their local day), in USD. */
  async spentToday(phone: string): Promise<number> {
    return (await this.reading(phone))?.costUsd ?? 0;
  }

  /** The user's spend today and their tier, as last read when still fresh; null: no such user. */
  private async reading(phone: string): Promise<Spend | null> {
    this.takeHanded(phone);
    const cached = this.spend.get(phone);
    const now = this.clock();
    // The clock moves at least FRESH_MS between readings, so a reading never outlives its day by more.
    // Without the user's tier, a tier's own budget cannot be told: read it with the spend.
    if (cached && now - cached.readAt < FRESH_MS && (cached.tier || !this.tiered)) return cached;
    const day = await this.options.usage.spent(phone, new Date(now));
    if (!day) return null;
    return this.remember(phone, day, now);
  }

  /**
   * Takes the spend the transport read with the user at the turn's start (TurnContext.llmSpend)
   * as this process's reading of it, once, unless a newer one is kept already (a usage write that
   * returned since). A write of a background call still running is in neither that reading nor
   * `unwritten`: then the reading is left, and the spend read as ever.
   */
  private takeHanded(phone: string): void {
    const turn = currentTurn();
    const handed = turn?.phone === phone ? turn.llmSpend : undefined;
    if (!turn || !handed) return;
    delete turn.llmSpend;
    const cached = this.spend.get(phone);
    if (cached && cached.readAt >= handed.readAt) return;
    if ((this.uncountedWrites.get(phone) ?? 0) > 0) return;
    this.remember(phone, handed, handed.readAt);
  }

  /** Whether the user has spent their budget (their tier's) for today. False when no limit is set. */
  async exhausted(phone: string): Promise<boolean> {
    if (!this.enabled) return false;
    const spend = await this.reading(phone);
    if (!spend) return false;
    const limit = this.dailyUsdOf(spend.tier);
    return limit > 0 && spend.costUsd >= limit;
  }

  /**
   * At the start of a turn's LLM work (the planner): false when the user's budget is spent;
   * otherwise the turn is admitted, and its later calls are not refused halfway through.
   */
  async admit(phone: string): Promise<boolean> {
    if (await this.exhausted(phone)) return false;
    const turn = currentTurn();
    if (turn?.phone === phone) turn.llmAdmitted = true;
    return true;
  }

  /**
   * Gate before every LLM call: refuses calls made for a user whose budget is spent, unless
   * their turn was admitted before it ran out. Work that is no user's is never refused; a
   * database error lets the call through.
   */
  readonly gate = async (node: LLMNode): Promise<void> => {
    const turn = currentTurn();
    const phone = turn?.phone;
    if (!phone || !this.enabled || turn.llmAdmitted) return;
    let over: boolean;
    try {
      over = await this.exhausted(phone);
    } catch (error) {
      this.options.logger.error({ err: error, user: phoneTag(phone) }, "could not read LLM usage");
      return;
    }
    if (over) {
      throw new LLMError("over_budget", `the user's daily LLM budget is spent; ${node} not called`, {
        node,
      });
    }
  };
}
