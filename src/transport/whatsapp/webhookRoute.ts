import express, { Router, type Request, type RequestHandler } from "express";
import type { InboxRepository, NewInboxMessage } from "../../db/repositories/inboxRepository.js";
import type { OutboundMessageRepository } from "../../db/repositories/outboundMessageRepository.js";
import type { WebhookMetrics } from "../../services/metrics/metrics.js";
import { SIGNATURE_HEADER, sameSecret, verifySignature } from "./signature.js";
import type { DebugForwarderService } from "./debugForwarder.js";
import {
  DELIVERY_STATUSES,
  WebhookBodySchema,
  readWebhookBody,
  type WebhookContents,
} from "./webhookSchema.js";
import { type DeliveryStatus } from "../../types/whatsapp.js";
import type { Logger } from "../../utils/logger.js";
import { normalizePhone } from "../../utils/phone.js";

/** Largest webhook body accepted (Meta's are a few kB; batches stay far below this). */
const WEBHOOK_BODY_LIMIT = "3mb";

export interface WebhookDeps {
  logger: Logger;
  /** WHATSAPP_APP_SECRET; unset (outside production only) means bodies are accepted unsigned. */
  appSecret?: string;
  /** WHATSAPP_VERIFY_TOKEN; unset means verification requests are refused. */
  verifyToken?: string;
  /**
   * WHATSAPP_PHONE_NUMBER_ID: changes for any other business number (metadata.phone_number_id)
   * are ignored and counted (default: every change is read).
   */
  phoneNumberId?: string;
  /** Stores messages in the inbox (batching concurrent calls). */
  inbox: Pick<InboxRepository, "insert">;
  outbound: OutboundMessageRepository;
  /** Called after new messages are stored, so the worker picks them up at once. */
  onStored: () => void;
  /** Told of each "failed" status after it is recorded (the scheduler answers 131047 with a template). */
  onDeliveryFailed?: (update: {
    waMessageId: string;
    errorCode?: number;
    errorTitle?: string;
  }) => Promise<void>;
  /** Acknowledgement latency and failed delivery statuses (default: not counted). */
  metrics?: WebhookMetrics;
  /** Epoch milliseconds now, against which message timestamps are checked (default: `Date.now`). */
  clock?: () => number;
  /** Also sends the test phones' webhooks to a developer's Memo (DEBUG_FORWARD_URL; default: none). */
  debugForwarder?: Pick<DebugForwarderService, "forward">;
}

/** GET and POST /webhook/whatsapp: Meta's verification handshake and its notifications. */
export function webhookRoutes(deps: WebhookDeps): Router {
  const router = Router();
  const { logger } = deps;
  let warnedUnsigned = false;
  /** Other business numbers already warned about (bounded: a body names whatever it likes). */
  const warnedForeign = new Set<string>();

  router.get("/webhook/whatsapp", (req, res) => {
    const mode = req.query["hub.mode"];
    const token = req.query["hub.verify_token"];
    const challenge = req.query["hub.challenge"];
    if (
      deps.verifyToken !== undefined &&
      mode === "subscribe" &&
      typeof token === "string" &&
      sameSecret(token, deps.verifyToken) &&
      typeof challenge === "string"
    ) {
      res.type("text/plain").send(challenge);
      return;
    }
    logger.warn(
      { event: "WEBHOOK_VERIFY_REFUSED", mode: typeof mode === "string" ? mode : undefined },
      "webhook verification refused",
    );
    res.sendStatus(403);
  });

  router.post(
    "/webhook/whatsapp",
    acknowledgementTimer(deps.metrics),
    // The raw bytes, whatever the content type: the signature covers them exactly.
    express.raw({ type: () => true, limit: WEBHOOK_BODY_LIMIT }),
    async (req, res) => {
      const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      if (deps.appSecret !== undefined) {
        if (!verifySignature(body, req.get(SIGNATURE_HEADER), deps.appSecret)) {
          logger.warn(
            { event: "WEBHOOK_BAD_SIGNATURE", requestId: req.id, bytes: body.length },
            "webhook signature rejected",
          );
          res.status(401).json({ error: "invalid_signature", requestId: req.id });
          return;
        }
      } else if (!warnedUnsigned) {
        warnedUnsigned = true;
        logger.warn("WHATSAPP_APP_SECRET is not set: webhook bodies are accepted without a signature check");
      }

      const contents = parse(body, deps.phoneNumberId);
      if (!contents) {
        res.status(400).json({ error: "not_a_whatsapp_notification", requestId: req.id });
        return;
      }
      if (contents.foreign.length > 0) {
        deps.metrics?.foreignEntriesIgnored(contents.foreign.length);
        for (const { phoneNumberId } of contents.foreign) {
          const id = phoneNumberId ?? "(none)";
          if (warnedForeign.has(id) || warnedForeign.size >= 100) continue;
          warnedForeign.add(id);
          logger.warn(
            { event: "WEBHOOK_FOREIGN_NUMBER", requestId: req.id, phoneNumberId: id },
            "webhook for another business number ignored (WHATSAPP_PHONE_NUMBER_ID differs)",
          );
        }
      }
      for (const item of contents.skipped) {
        logger.warn(
          { event: "WEBHOOK_ITEM_SKIPPED", requestId: req.id, ...item },
          "webhook item did not parse",
        );
      }
      for (const error of contents.errors) {
        logger.error(
          {
            event: "WHATSAPP_ERROR",
            requestId: req.id,
            code: error.code,
            title: error.title,
            details: error.error_data?.details,
          },
          "WhatsApp reported an error",
        );
      }

      const messages = toInboxMessages(contents, logger, (deps.clock ?? Date.now)());
      // Stored (committed) before the 200: from here on a crash loses nothing.
      const stored = await deps.inbox.insert(messages);
      // The messages are safe: the worker may start before the statuses are written.
      if (stored.length > 0) deps.onStored();
      await applyStatuses(deps, contents, req);
      res.sendStatus(200);
      // After the answer, in the background: a developer's endpoint never slows Meta's webhook.
      deps.debugForwarder?.forward(body, { requestId: String(req.id) });
      if (stored.length < messages.length) {
        logger.debug(
          { requestId: req.id, duplicates: messages.length - stored.length },
          "redelivered messages dropped",
        );
      }
    },
  );
  return router;
}

/**
 * Times each POST from its arrival (before the body is read) to its response being handed to the
 * network: Meta retries a webhook that is slow to answer, so this is what must stay low.
 */
function acknowledgementTimer(metrics: WebhookMetrics | undefined): RequestHandler {
  return (_req, res, next) => {
    if (metrics) {
      const started = performance.now();
      res.on("finish", () => metrics.webhookAnswered(res.statusCode, (performance.now() - started) / 1000));
    }
    next();
  };
}

/** The body as a WhatsApp Business Account notification, or null. */
function parse(body: Buffer, phoneNumberId: string | undefined): WebhookContents | null {
  let json: unknown;
  try {
    json = JSON.parse(body.toString("utf8"));
  } catch {
    return null;
  }
  const parsed = WebhookBodySchema.safeParse(json);
  return parsed.success ? readWebhookBody(parsed.data, phoneNumberId) : null;
}

/** Messages start no turn when they cannot ask for anything (a reaction); they are still kept. */
const RECORDED_ONLY = new Set(["reaction"]);

/** How far ahead of our clock a message's timestamp may be and still be believed (default: 5 minutes). */
const MAX_CLOCK_SKEW_MS = 5 * 60_000;

/**
 * When a message was sent, as the inbox keeps it: its timestamp, unless that is further in the
 * future than clock skew explains; then now. A future time would hold the 24-hour window open for
 * years and sort the message after everything the user sends later.
 */
function sentAtOf(timestamp: string, nowMs: number): Date {
  const sentMs = Number(timestamp) * 1000;
  return new Date(sentMs > nowMs + MAX_CLOCK_SKEW_MS ? nowMs : sentMs);
}

function toInboxMessages(contents: WebhookContents, logger: Logger, nowMs: number): NewInboxMessage[] {
  const out: NewInboxMessage[] = [];
  for (const { message, contactName } of contents.messages) {
    let phone: string;
    try {
      phone = normalizePhone(message.from);
    } catch {
      logger.warn(
        { event: "WEBHOOK_BAD_SENDER", type: message.type },
        "message from a sender that is not a phone number",
      );
      continue;
    }
    out.push({
      waMessageId: message.id,
      phone,
      type: message.type,
      sentAt: sentAtOf(message.timestamp, nowMs),
      payload: message,
      ...(contactName ? { contactName } : {}),
      status: RECORDED_ONLY.has(message.type) ? "recorded" : "pending",
    });
  }
  return out;
}

async function applyStatuses(deps: WebhookDeps, contents: WebhookContents, req: Request): Promise<void> {
  for (const status of contents.statuses) {
    if (!(DELIVERY_STATUSES as readonly string[]).includes(status.status)) continue;
    let phone: string;
    try {
      phone = normalizePhone(status.recipient_id ?? "");
    } catch {
      continue;
    }
    const error = status.errors?.[0];
    if (status.status === "failed") {
      deps.metrics?.deliveryFailed(error?.code);
      deps.logger.warn(
        {
          event: "WHATSAPP_DELIVERY_FAILED",
          requestId: req.id,
          messageId: status.id,
          code: error?.code,
          title: error?.title,
        },
        "a message Memo sent was not delivered",
      );
    }
    await deps.outbound.applyStatus({
      waMessageId: status.id,
      phone,
      status: status.status as DeliveryStatus,
      at: new Date(Number(status.timestamp) * 1000),
      ...(error ? { errorCode: error.code, ...(error.title ? { errorTitle: error.title } : {}) } : {}),
    });
    if (status.status === "failed" && deps.onDeliveryFailed) {
      await deps
        .onDeliveryFailed({
          waMessageId: status.id,
          ...(error ? { errorCode: error.code, ...(error.title ? { errorTitle: error.title } : {}) } : {}),
        })
        // The status is recorded; what the scheduler makes of it must not fail the webhook.
        .catch((err: unknown) =>
          deps.logger.error(
            { err, requestId: req.id, messageId: status.id },
            "delivery failure handler failed",
          ),
        );
    }
  }
}
