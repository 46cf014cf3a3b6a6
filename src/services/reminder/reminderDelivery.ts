import { setMaxListeners } from "node:events";
import { setTimeout as delay } from "node:timers/promises";
import type { SchedulerSettings } from "../../config/env.js";
import { CLAIM_LEASE_MS } from "../../config/lifetimes.js";
import type { Delivery, DeliveryLedger } from "../../db/repositories/deliveryLedger.js";
import type { MessageSender } from "../../types/outbound.js";
import type { ProactiveContent } from "../../types/proactive.js";
import { mapWithConcurrency } from "../../utils/concurrency.js";
import { describeError, WhatsAppApiError } from "../../utils/errors.js";
import type { Logger } from "../../utils/logger.js";
import { withTurn } from "../../utils/turnContext.js";
import type { ReminderMetrics } from "../metrics/metrics.js";
import { ProactivePacer } from "./proactivePacer.js";
import { digestIsEmpty, LATE_AFTER_MS, renderProactive } from "./proactiveText.js";
import { renderWeeklyTemplate, weeklyIsEmpty } from "./weeklyText.js";
import { OUTSIDE_WINDOW_CODE, outsideWindow } from "./whatsAppWindow.js";

/** Send attempts of one delivery (a Graph API outage is retried on later ticks). @internal */
export const MAX_ATTEMPTS = 3;
/** A send slot further ahead than this is left to a later pass (deferred), not waited for. */
export const DEFER_AFTER_MS = 30 * 1000;
/** Wait before another attempt at a delivery whose send failed in a way worth retrying. */
const RETRY_AFTER_MS = 60 * 1000;
/** Users whose messages are being sent at once. */
const SEND_CONCURRENCY = 64;

/** What became of one claimed delivery this pass. */
export type DeliveryOutcome =
  /** The Graph API accepted it. */
  | "sent"
  /** Given up (refused, too many attempts, no WhatsApp client). */
  | "failed"
  /** Outside the 24-hour window with no template configured. */
  | "undeliverable"
  /** Nothing to send any more: an empty digest, a task done or deleted. */
  | "skipped"
  /** Its send slot is beyond this pass: handed back for a later one. */
  | "deferred"
  /** stop() came first: handed back for the next pass. */
  | "released"
  /** Another instance took the claim over. */
  | "lost"
  /** Queued for another attempt (or as the template) on a later pass. */
  | "retrying"
  /** The delivery itself threw (the database, most likely): left claimed until the lease ends. */
  | "error";

/** What delivery asks of the morning digest and the weekly review at send time. */
export interface DigestAtSend {
  /** A digest or review with the sections of the digest sources added (asked now); other content as it is. */
  complete(content: ProactiveContent, phone: string): Promise<ProactiveContent>;
  /** A rendered digest's text, reworded when that is on. */
  polish(text: string, language: "he" | "en"): Promise<string>;
}

export interface ReminderDeliveryDeps {
  /** The delivery ledger every send is recorded in, under its claim token. */
  ledger: DeliveryLedger;
  /** null: no WhatsApp client at all (nothing can be sent; deliveries fail loudly). */
  sender: MessageSender | null;
  logger: Logger;
  clock: () => number;
  /** Resolves when the clock reaches `atMs` (default: a timer that stop() ends); tests move a fake clock. */
  sleepUntil?: (atMs: number) => Promise<void>;
  settings: Pick<SchedulerSettings, "maxPerSecond" | "userGapMs" | "templates">;
  /** Counts deliveries by kind and outcome, and the late ones (default: not counted). */
  metrics?: ReminderMetrics;
  /** Completes and polishes digests at send time. */
  digest: DigestAtSend;
}

/**
 * The send side of reminders, digests and household notices: claimed deliveries go out paced per
 * user (the gap) and overall (the pacer), free-form inside WhatsApp's 24-hour window and as the
 * template outside it; failures are retried, requeued as the template (131047) or recorded.
 */
export class ReminderDelivery {
  private readonly ledger: DeliveryLedger;
  private readonly pacer: ProactivePacer;
  private readonly sleepUntil: (atMs: number) => Promise<void>;
  /** Phones already warned about as unreachable (no template), so the log says it once. */
  private readonly warnedUnreachable = new Set<string>();
  /** Set by stop(): waits end, and what is not yet sent is released for the next pass. */
  private stopping = stopController();
  /** When this instance last sent each user a proactive message (entries older than the gap are dropped). */
  private readonly lastSent = new Map<string, number>();

  constructor(private readonly deps: ReminderDeliveryDeps) {
    this.ledger = deps.ledger;
    this.sleepUntil =
      deps.sleepUntil ??
      ((atMs) =>
        delay(Math.max(0, atMs - deps.clock()), undefined, { signal: this.stopping.signal }).catch(
          () => undefined,
        ));
    this.pacer = new ProactivePacer({
      perSecond: deps.settings.maxPerSecond,
      clock: deps.clock,
      sleepUntil: this.sleepUntil,
    });
  }

  /**
   * Stops sending: a pass that is running hands back what it has not sent yet (released for the
   * next pass of any instance, so a restart sends it at once rather than after the claim lease).
   */
  stop(): void {
    this.stopping.abort();
  }

  /** Sends again after stop(). */
  resume(): void {
    if (this.stopping.signal.aborted) this.stopping = stopController();
  }

  /** Sends claimed deliveries: each user's in order, users side by side. Returns each one's outcome. */
  async send(deliveries: readonly Delivery[]): Promise<DeliveryOutcome[]> {
    const byUser = new Map<string, Delivery[]>();
    for (const d of [...deliveries].sort(
      (a, b) => a.sendAfter - b.sendAfter || a.occurrenceAt - b.occurrenceAt,
    )) {
      const list = byUser.get(d.phone) ?? [];
      list.push(d);
      byUser.set(d.phone, list);
    }
    const { clock, settings, logger } = this.deps;
    for (const [phone, at] of this.lastSent)
      if (at + settings.userGapMs <= clock()) this.lastSent.delete(phone);
    // What is due by then goes in this pass; later slots are handed back (deferred).
    const horizon = clock() + DEFER_AFTER_MS;
    const perUser = await mapWithConcurrency([...byUser.values()], SEND_CONCURRENCY, async (list) => {
      const outcomes: DeliveryOutcome[] = [];
      for (const delivery of list) {
        // Log lines, LLM calls (a polished digest) and traces of this send carry its key and user.
        const turn = {
          traceId: delivery.key,
          phone: delivery.phone,
          trigger: delivery.kind === "nudge" ? ("nudge" as const) : ("cron" as const),
        };
        const outcome = await withTurn(turn, () => this.deliver(delivery, horizon)).catch(
          (error: unknown) => {
            // Left claimed (the database failed, most likely): taken over after the lease, and the
            // user's other messages still go.
            logger.error(
              { err: error, event: "REMINDER_DELIVERY", key: delivery.key, phone: delivery.phone },
              "reminder delivery failed; retried after the claim lease",
            );
            return "error" as const;
          },
        );
        // Late: gathered after downtime, or sent past the point where its text says "late".
        const late = delivery.kind === "away" || clock() - delivery.occurrenceAt > LATE_AFTER_MS;
        this.deps.metrics?.reminderHandled(delivery.kind, outcome, late);
        outcomes.push(outcome);
      }
      return outcomes;
    });
    return perUser.flat();
  }

  /** Sends one claimed delivery: free-form inside the 24-hour window, the template outside it. */
  async deliver(delivery: Delivery, horizon = this.deps.clock() + DEFER_AFTER_MS): Promise<DeliveryOutcome> {
    const { logger, clock, sender, settings } = this.deps;
    // The gap holds between actual sends: a message that went late (behind the overall pace)
    // pushes the user's next one back, whatever its slot said.
    const previous = this.lastSent.get(delivery.phone);
    const notBefore = Math.max(
      delivery.sendAfter,
      previous === undefined ? 0 : previous + settings.userGapMs,
    );
    // A slot beyond the pass's horizon (a user with many messages at once) is left to a later
    // pass, so a pass stays short and one busy user never holds up everyone else's reminders.
    if (Math.max(notBefore, this.pacer.nextSlotAt()) > horizon) {
      await this.ledger.defer(
        delivery.key,
        delivery.claimToken,
        Math.max(notBefore, clock()),
        CLAIM_LEASE_MS,
        settings.userGapMs,
      );
      return "deferred";
    }
    if (notBefore > clock()) await this.sleepUntil(notBefore);
    await this.pacer.acquire();
    if (this.stopping.signal.aborted) {
      await this.ledger.release(delivery.key, delivery.claimToken);
      return "released";
    }
    const context = {
      event: "REMINDER_DELIVERY",
      key: delivery.key,
      kind: delivery.kind,
      phone: delivery.phone,
    };
    if (!sender) {
      await this.ledger.finish(delivery.key, delivery.claimToken, "failed", "no WhatsApp client configured");
      logger.error(context, "no WhatsApp client: reminder not sent");
      return "failed";
    }
    // Everything slow (other capabilities' digest sections, the optional polish) happens before
    // the claim is renewed, so the renewal is followed by the send itself.
    const content = await this.deps.digest.complete(delivery.content, delivery.phone);
    if (
      (content.kind === "digest" && digestIsEmpty(content)) ||
      (content.kind === "weekly" && weeklyIsEmpty(content))
    ) {
      await this.ledger.finish(delivery.key, delivery.claimToken, "skipped", "nothing to report");
      return "skipped";
    }
    const rendered = renderProactive(content, clock());
    const message =
      content.kind === "digest"
        ? { ...rendered, text: await this.deps.digest.polish(rendered.text, content.language) }
        : rendered;
    const attempt = await this.ledger.startAttempt(delivery.key, delivery.claimToken, clock());
    // Another instance took it over (this one stalled past the lease): it is theirs to send.
    if (!attempt) return "lost";
    if (attempt.taskGone) {
      await this.ledger.finish(delivery.key, delivery.claimToken, "skipped", "the task was done or deleted");
      return "skipped";
    }
    if (attempt.attempts > MAX_ATTEMPTS) {
      await this.ledger.finish(
        delivery.key,
        delivery.claimToken,
        "failed",
        delivery.error ?? "too many attempts",
      );
      logger.error({ ...context, attempts: attempt.attempts }, "reminder delivery gave up");
      return "failed";
    }
    const now = clock();
    const inWindow = !content.viaTemplate && !outsideWindow(attempt.lastInboundAt, now);
    const via = inWindow ? "text" : "template";
    // As the template, the review is fitted to its one parameter (overdue first, the footer kept).
    const weeklyTemplate =
      via === "template" && content.kind === "weekly" ? renderWeeklyTemplate(content) : null;
    // The review's overdue tasks are numbered: the window keeps which of them it showed, so "done 2" names one.
    const ids = content.kind !== "weekly" ? [] : (weeklyTemplate?.taskIds ?? content.overdue.taskIds);
    const numbered = ids.length > 0 ? { numbered: { type: "task" as const, ids } } : {};
    const template = this.templateFor(content);
    if (via === "template" && !template) {
      await this.ledger.finish(
        delivery.key,
        delivery.claimToken,
        "undeliverable",
        "outside the 24-hour window and no template configured",
      );
      this.warnUnreachable(delivery.phone, context);
      return "undeliverable";
    }
    /** The WhatsApp id of the (first) message the Graph API accepted, once it has. */
    let accepted: string | null = null;
    let recorded = false;
    const onAccepted = async (waMessageId: string) => {
      if (accepted !== null) return;
      accepted = waMessageId;
      const at = clock();
      this.lastSent.set(delivery.phone, at);
      await this.ledger.markSent(delivery.key, delivery.claimToken, via, waMessageId, at);
      recorded = true;
    };
    try {
      if (via === "template") {
        // Only the household template has buttons (Accept / Decline): their payloads go with it.
        const buttons = content.kind === "household" ? message.buttons.map((b) => b.id) : [];
        await sender.sendTemplate(delivery.phone, template!, weeklyTemplate?.text ?? message.text, {
          onAccepted,
          buttons,
          memory: attempt.isUser ? "append" : "none",
          ...numbered,
        });
      } else {
        await sender.send(
          delivery.phone,
          {
            text: message.text,
            ...(message.buttons.length > 0
              ? { question: message.text, expectedInput: "single_choice" as const }
              : {}),
            options: message.buttons,
            language: content.language,
            ...numbered,
          },
          // Appended in one statement: a turn of this user may be running on another instance.
          // Someone invited who is not a user yet has no conversation to keep it in.
          { memory: attempt.isUser ? "append" : "none", onAccepted },
        );
      }
      // A sender without a client logs and sends nothing: not a delivery.
      if (accepted === null) throw new Error("reminder not sent: the WhatsApp client sent nothing");
      logger.info({ ...context, via, lateMs: now - delivery.occurrenceAt }, "reminder sent");
      return "sent";
    } catch (error) {
      // The message is out (what failed came after it: recording it, a second part, the window's
      // append): never retried, or the user would get it twice. A ledger write that fails again
      // leaves the row claimed: the documented resend window.
      if (accepted !== null) {
        if (!recorded) await this.ledger.markSent(delivery.key, delivery.claimToken, via, accepted, clock());
        logger.warn({ ...context, err: error }, "reminder sent; what followed the send failed");
        return "sent";
      }
      return this.failed(delivery, error, attempt.attempts, context);
    }
  }

  /**
   * A status webhook said a message failed. A free-form reminder refused for being outside the
   * 24-hour window (131047) is queued once more, to go as the template on the next pass (paced,
   * and off the webhook's request); other failures are recorded.
   */
  async onDeliveryFailed(update: {
    waMessageId: string;
    errorCode?: number;
    errorTitle?: string;
  }): Promise<void> {
    const reason = `code ${update.errorCode ?? "?"}${update.errorTitle ? `: ${update.errorTitle}` : ""}`;
    if (update.errorCode !== OUTSIDE_WINDOW_CODE) {
      await this.ledger.markFailedByMessage(update.waMessageId, reason);
      return;
    }
    const key = await this.ledger.requeueAsTemplate({ waMessageId: update.waMessageId }, reason);
    // Already retried once, a template itself, or not (yet) recorded as sent: at least on record.
    if (!key) await this.ledger.markFailedByMessage(update.waMessageId, reason);
    if (key)
      this.deps.logger.info({ event: "REMINDER_TEMPLATE_RETRY", key }, "131047: queued again as a template");
  }

  /** A send that failed: requeued as the template (131047), left for a later attempt, or given up. */
  private async failed(
    delivery: Delivery,
    error: unknown,
    attempts: number,
    context: Record<string, unknown>,
  ): Promise<DeliveryOutcome> {
    const api = graphErrorOf(error);
    // The window closed between our check and Meta's: the template goes on the next pass.
    if (api?.code === OUTSIDE_WINDOW_CODE && !delivery.content.viaTemplate) {
      const key = await this.ledger.requeueAsTemplate(
        { key: delivery.key, claimToken: delivery.claimToken },
        describeError(api),
      );
      if (key) return "retrying";
    }
    // The Graph API's own words (status, Meta code), not the sender's wrapper ("could not be delivered").
    const reason = describeError(api ?? error);
    // Not the Graph API's refusal (no answer, a database hiccup): worth another attempt.
    const retryable = api?.retryable ?? true;
    if (retryable && attempts < MAX_ATTEMPTS) {
      const now = this.deps.clock();
      await this.ledger.retryLater(
        delivery.key,
        delivery.claimToken,
        reason,
        CLAIM_LEASE_MS,
        now + RETRY_AFTER_MS,
      );
      this.deps.logger.warn({ ...context, err: error, attempts }, "reminder send failed; will retry");
      return "retrying";
    }
    await this.ledger.finish(delivery.key, delivery.claimToken, "failed", reason);
    this.deps.logger.error({ ...context, err: error, attempts }, "reminder send failed");
    return "failed";
  }

  /** The template for this content, in the user's language; null when none is configured. */
  private templateFor(content: ProactiveContent): { name: string; languageCode: string } | null {
    const { templates } = this.deps.settings;
    const name =
      content.kind === "digest"
        ? templates.digest
        : content.kind === "weekly"
          ? templates.weekly
          : content.kind === "household"
            ? templates.household
            : templates.reminder;
    if (!name) return null;
    return {
      name,
      languageCode: content.language === "he" ? templates.languages.he : templates.languages.en,
    };
  }

  private warnUnreachable(phone: string, context: Record<string, unknown>): void {
    const first = !this.warnedUnreachable.has(phone);
    this.warnedUnreachable.add(phone);
    const log = first
      ? this.deps.logger.warn.bind(this.deps.logger)
      : this.deps.logger.debug.bind(this.deps.logger);
    log(
      { ...context, event: "REMINDER_UNDELIVERABLE" },
      "user is outside WhatsApp's 24-hour window and no template is configured (WHATSAPP_REMINDER_TEMPLATE / WHATSAPP_DIGEST_TEMPLATE / WHATSAPP_WEEKLY_TEMPLATE): recorded as undeliverable",
    );
  }
}

/** The stop signal every waiting send listens to (up to SEND_CONCURRENCY at once: no listener limit). */
function stopController(): AbortController {
  const controller = new AbortController();
  setMaxListeners(0, controller.signal);
  return controller;
}

/** The Graph API error behind a failed send: thrown as is, or as the cause of the sender's DeliveryError. */
function graphErrorOf(error: unknown): WhatsAppApiError | null {
  if (error instanceof WhatsAppApiError) return error;
  const cause = (error as { cause?: unknown } | null)?.cause;
  return cause instanceof WhatsAppApiError ? cause : null;
}
