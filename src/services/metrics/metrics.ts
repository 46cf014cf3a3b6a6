import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import type { InboxRepository } from "../../db/repositories/inboxRepository.js";
import type { LLMNode } from "../../types/llm.js";
import type { MemoReply } from "../../types/reply.js";
import type { TriggerType } from "../../types/index.js";
import type { Logger } from "../../utils/logger.js";
import type { LLMObserver } from "../llm/observedLlmService.js";

/** How a turn ended (MemoReply's status). */
export type TurnStatus = MemoReply["status"];

const TURN_STATUSES: readonly TurnStatus[] = ["completed", "waiting", "expired", "failed"];
const TRIGGERS: readonly TriggerType[] = ["user", "cron", "nudge", "event"];

/** Reminder outcomes worth counting; the rest (deferred, released, lost) are handled again by a later pass. */
const REMINDER_OUTCOMES = new Set(["sent", "failed", "undeliverable", "retrying", "skipped", "error"]);

/** Turn durations: a fast-path answer takes tens of milliseconds, a plan with several LLM calls many seconds. */
const TURN_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2, 3, 5, 8, 13, 20, 30, 45, 60];
/** One LLM request, retries and the fallback model included. */
const LLM_BUCKETS = [0.1, 0.25, 0.5, 1, 2, 4, 8, 15, 30, 60];
/** The webhook answers once the message is stored: milliseconds normally, Meta retries after ~20 s. */
const WEBHOOK_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export interface MetricsOptions {
  /** The inbox whose backlog is read on each scrape (default: none; the inbox gauges then stay at 0). */
  inbox?: Pick<InboxRepository, "backlog">;
  /** Told when the inbox query fails (default: silent). */
  logger?: Logger;
  /** The configured model of a node, for failed calls that got no answer naming one (default: "unknown"). */
  modelOf?: (node: LLMNode) => string;
  /** Node.js process metrics (CPU, memory, event loop lag, GC), unprefixed as dashboards expect (default: true). */
  processMetrics?: boolean;
  /** Milliseconds the inbox query may take before the scrape goes on without it (default: 2000). */
  inboxTimeoutMs?: number;
}

/** What the conversation runtime reports: turns and the questions it asks. */
export type RuntimeMetrics = Pick<
  Metrics,
  "turnFinished" | "questionOpened" | "questionAnswered" | "questionExpired"
>;
/** What the webhook reports. */
export type WebhookMetrics = Pick<Metrics, "webhookAnswered" | "deliveryFailed" | "foreignEntriesIgnored">;
/** What the Graph API client reports. */
export type SendMetrics = Pick<Metrics, "sendFailed">;
/** What the scheduler's reminder service reports. */
export type ReminderMetrics = Pick<Metrics, "reminderHandled">;

/**
 * Memo's Prometheus metrics (issue #10), on a registry of their own: several services in one
 * process (tests, benches) never share or collide. Every method is cheap and never throws into
 * the caller's work; the inbox gauges are read from the database when scraped.
 */
export class Metrics {
  readonly registry = new Registry();

  private readonly turns: Counter<"status" | "trigger">;
  private readonly turnSeconds: Histogram<"status" | "trigger">;
  private readonly llmCalls: Counter<"node" | "model" | "outcome">;
  private readonly llmSeconds: Histogram<"node">;
  private readonly llmInputTokens: Counter<"node" | "model">;
  private readonly llmOutputTokens: Counter<"node" | "model">;
  private readonly llmCost: Counter<"node" | "model">;
  private readonly webhookSeconds: Histogram<"status">;
  private readonly inboxFailures: Counter;
  private readonly reminders: Counter<"kind" | "outcome">;
  private readonly remindersLate: Counter<"kind">;
  private readonly questions: Counter<"event">;
  private readonly sendFailures: Counter<"code" | "kind">;
  private readonly deliveryFailures: Counter<"code">;
  private readonly foreignEntries: Counter;
  /** The inbox query of the scrape under way, shared by both inbox gauges. */
  private inboxRead: Promise<{ pending: number; oldestSeconds: number }> | undefined;
  private inboxFailing = false;

  constructor(private readonly options: MetricsOptions = {}) {
    const registers = [this.registry];
    if (options.processMetrics !== false) collectDefaultMetrics({ register: this.registry });

    this.turns = new Counter({
      name: "memo_turns_total",
      help: "Conversation turns, by how they ended and what started them.",
      labelNames: ["status", "trigger"],
      registers,
    });
    // Every series exists from the start, so rates and alerts see a 0 rather than nothing.
    for (const status of TURN_STATUSES)
      for (const trigger of TRIGGERS) this.turns.inc({ status, trigger }, 0);
    this.turnSeconds = new Histogram({
      name: "memo_turn_duration_seconds",
      help: "Time from a turn's start to its reply being ready (sending not included).",
      labelNames: ["status", "trigger"],
      buckets: TURN_BUCKETS,
      registers,
    });

    this.llmCalls = new Counter({
      name: "memo_llm_calls_total",
      help: "LLM calls by node, model and outcome (ok, or the error kind: timeout, rate_limited, invalid_output, api_error...).",
      labelNames: ["node", "model", "outcome"],
      registers,
    });
    this.llmSeconds = new Histogram({
      name: "memo_llm_call_duration_seconds",
      help: "Duration of one LLM call, retries and the fallback model included.",
      labelNames: ["node"],
      buckets: LLM_BUCKETS,
      registers,
    });
    this.llmInputTokens = new Counter({
      name: "memo_llm_input_tokens_total",
      help: "Prompt tokens sent to LLMs, by node and model.",
      labelNames: ["node", "model"],
      registers,
    });
    this.llmOutputTokens = new Counter({
      name: "memo_llm_output_tokens_total",
      help: "Completion tokens received from LLMs, by node and model.",
      labelNames: ["node", "model"],
      registers,
    });
    this.llmCost = new Counter({
      name: "memo_llm_cost_usd_total",
      help: "LLM cost in US dollars at list prices (models outside the price table count 0), by node and model.",
      labelNames: ["node", "model"],
      registers,
    });

    this.webhookSeconds = new Histogram({
      name: "memo_webhook_ack_duration_seconds",
      help: "WhatsApp webhook POSTs: time from the request's arrival to the response being sent, by HTTP status.",
      labelNames: ["status"],
      buckets: WEBHOOK_BUCKETS,
      registers,
    });

    const inbox = options.inbox;
    const backlog = () => this.inboxBacklog();
    new Gauge({
      name: "memo_inbox_pending_messages",
      help: "Inbound messages stored and not yet answered (inbox rows pending), read from the database on scrape.",
      registers,
      collect: inbox
        ? async function (this: Gauge) {
            this.set((await backlog()).pending);
          }
        : undefined,
    });
    new Gauge({
      name: "memo_inbox_oldest_pending_age_seconds",
      help: "Seconds the oldest pending inbound message has waited since it arrived (0 when none), read on scrape.",
      registers,
      collect: inbox
        ? async function (this: Gauge) {
            this.set((await backlog()).oldestSeconds);
          }
        : undefined,
    });
    this.inboxFailures = new Counter({
      name: "memo_inbox_scrape_errors_total",
      help: "Scrapes whose inbox query failed or timed out (the inbox gauges are then NaN).",
      registers,
      // Read after this scrape's query has settled, so a failure shows in the same scrape.
      collect: inbox
        ? async () => {
            await backlog();
          }
        : undefined,
    });

    this.reminders = new Counter({
      name: "memo_reminders_total",
      help: "Reminder, nudge and digest deliveries by kind and outcome: sent, failed, undeliverable (outside the 24-hour window, no template), skipped, retrying (a send failed; tried again), error (the database failed mid-delivery).",
      labelNames: ["kind", "outcome"],
      registers,
    });
    this.remindersLate = new Counter({
      name: "memo_reminders_late_total",
      help: "Deliveries sent late (more than 2 minutes after their time, or gathered after downtime), by kind.",
      labelNames: ["kind"],
      registers,
    });

    this.questions = new Counter({
      name: "memo_hitl_questions_total",
      help: "Questions Memo asked the user (HITL), by event: opened, answered, expired (found expired when the user next wrote).",
      labelNames: ["event"],
      registers,
    });
    for (const event of ["opened", "answered", "expired"]) this.questions.inc({ event }, 0);

    this.sendFailures = new Counter({
      name: "memo_whatsapp_send_failures_total",
      help: "Outbound WhatsApp messages the Graph API refused or never answered (after retries), by Meta error code ('none' without one) and kind (api, network, timeout, invalid_response).",
      labelNames: ["code", "kind"],
      registers,
    });
    this.deliveryFailures = new Counter({
      name: "memo_whatsapp_delivery_failures_total",
      help: "Messages WhatsApp accepted and later reported as failed (status webhooks), by Meta error code.",
      labelNames: ["code"],
      registers,
    });
    this.foreignEntries = new Counter({
      name: "memo_webhook_foreign_entries_total",
      help: "Webhook changes addressed to another business phone number (metadata.phone_number_id), ignored unanswered.",
      registers,
    });
  }

  /** The Content-Type of `render()`'s text. */
  get contentType(): string {
    return this.registry.contentType;
  }

  /** Every metric in Prometheus' text format (runs the inbox query). */
  render(): Promise<string> {
    return this.registry.metrics();
  }

  /** A turn ended (MemoRuntime): its status, what started it, and how long it took. */
  turnFinished(status: TurnStatus, trigger: TriggerType, seconds: number): void {
    this.turns.inc({ status, trigger });
    this.turnSeconds.observe({ status, trigger }, seconds);
  }

  /** A new question was put to the user (a re-ask of the same question is not counted). */
  questionOpened(): void {
    this.questions.inc({ event: "opened" });
  }

  /** The user's reply settled the open question (not when it was asked again, or the turn failed). */
  questionAnswered(): void {
    this.questions.inc({ event: "answered" });
  }

  /** An open question was found past its time and dropped. */
  questionExpired(): void {
    this.questions.inc({ event: "expired" });
  }

  /** Counts every LLM call: pass to `createMemoRuntime({ llmObservers: [metrics.llmObserver] })`. */
  readonly llmObserver: LLMObserver = (call) => {
    const model = call.usage?.model ?? this.options.modelOf?.(call.node) ?? "unknown";
    const labels = { node: call.node, model };
    this.llmCalls.inc({ ...labels, outcome: call.ok ? "ok" : (call.errorKind ?? "api_error") });
    this.llmSeconds.observe({ node: call.node }, nonNegative(call.durationMs) / 1000);
    // A failed call may still have spent tokens on answers that were then rejected.
    if (call.usage) {
      this.llmInputTokens.inc(labels, nonNegative(call.usage.inputTokens));
      this.llmOutputTokens.inc(labels, nonNegative(call.usage.outputTokens));
      this.llmCost.inc(labels, nonNegative(call.usage.costUsd));
    }
  };

  /** The webhook answered a POST with `status`, `seconds` after it arrived. */
  webhookAnswered(status: number, seconds: number): void {
    this.webhookSeconds.observe({ status: String(status) }, seconds);
  }

  /** One delivery of the scheduler was handled; `late`: sent well after its time. */
  reminderHandled(kind: string, outcome: string, late: boolean): void {
    if (!REMINDER_OUTCOMES.has(outcome)) return;
    this.reminders.inc({ kind, outcome });
    if (outcome === "sent" && late) this.remindersLate.inc({ kind });
  }

  /** A message send failed for good (GraphApiClient, after its retries). */
  sendFailed(error: { code?: number | undefined; kind: string }): void {
    this.sendFailures.inc({ code: codeLabel(error.code), kind: error.kind });
  }

  /** A status webhook reported a message Memo sent as failed. */
  deliveryFailed(code: number | undefined): void {
    this.deliveryFailures.inc({ code: codeLabel(code) });
  }

  /** A webhook carried `count` changes for another business number, ignored. */
  foreignEntriesIgnored(count: number): void {
    this.foreignEntries.inc(count);
  }

  /** Both inbox gauges are collected in the same scrape: one query serves them. */
  private inboxBacklog(): Promise<{ pending: number; oldestSeconds: number }> {
    this.inboxRead ??= this.queryInbox().finally(() => {
      this.inboxRead = undefined;
    });
    return this.inboxRead;
  }

  /** The backlog, or NaN for both when the database fails or is slow: the scrape itself never fails. */
  private async queryInbox(): Promise<{ pending: number; oldestSeconds: number }> {
    const { inbox, logger } = this.options;
    const timeoutMs = this.options.inboxTimeoutMs ?? 2000;
    let timer: NodeJS.Timeout | undefined;
    try {
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`inbox query took over ${timeoutMs} ms`)), timeoutMs);
        timer.unref();
      });
      const read = inbox!.backlog();
      // A late answer after the timeout is dropped, not left as an unhandled rejection.
      read.catch(() => undefined);
      const backlog = await Promise.race([read, timeout]);
      if (this.inboxFailing)
        logger?.info({ event: "METRICS_INBOX_RECOVERED" }, "inbox metrics readable again");
      this.inboxFailing = false;
      return backlog;
    } catch (error) {
      this.inboxFailures.inc();
      // Said once per outage, not on every scrape.
      if (!this.inboxFailing)
        logger?.warn({ err: error, event: "METRICS_INBOX_FAILED" }, "inbox metrics could not be read");
      this.inboxFailing = true;
      return { pending: Number.NaN, oldestSeconds: Number.NaN };
    } finally {
      clearTimeout(timer);
    }
  }
}

/** Meta's error code as a label value. */
function codeLabel(code: number | undefined): string {
  return code === undefined ? "none" : String(code);
}

/** Counters only go up: a bad number from a caller counts as 0. */
function nonNegative(value: number): number {
  return Number.isFinite(value) && value > 0 ? value : 0;
}
