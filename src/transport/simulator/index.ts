import path from "node:path";
import { Router } from "express";
import type { Logger } from "../../utils/logger.js";
import { SimulatorEngine } from "./engine.js";
import { graphApiRoutes } from "./graphApi.js";
import { localOnly } from "./localOnly.js";
import { pageApiRoutes } from "./pageApi.js";
import { FilePersistence } from "./persistence.js";
import { type SimulatorPersistence } from "./store.js";
import { DEFAULT_LIMITS } from "./store.js";

/**
 * A local stand-in for WhatsApp and Meta's Graph API, for development without a Meta account:
 * a chat page whose messages reach the app as real (signed) Cloud API webhooks, and a Graph API
 * the app sends to, whose messages appear on the page live.
 *
 * Mount with `app.use("/dev/whatsapp", createSimulator(...).router)` and point the app's Graph
 * API base URL at `${publicUrl()}/graph`. Never in production: it accepts anyone's messages, so it
 * answers only requests from this machine, addressed to it by a loopback name, and not sent by
 * another site's page.
 */

export interface SimulatorOptions {
  /** The app's webhook URL, read when posting (the port is known only after listen), e.g. http://127.0.0.1:3000/webhook/whatsapp */
  webhookUrl: () => string;
  /** WHATSAPP_APP_SECRET when configured: each webhook body is signed with X-Hub-Signature-256. Unset: unsigned. */
  appSecret?: string;
  /** The business phone number id the app sends from (metadata.phone_number_id; the only id /graph accepts). */
  phoneNumberId: string;
  /** The simulator's own public base URL, read lazily, e.g. http://127.0.0.1:3000/dev/whatsapp (for media URLs). */
  publicUrl: () => string;
  logger: Logger;
  /** Epoch milliseconds (default: Date.now). */
  clock?: () => number;
  /** The business number shown to the user and sent as display_phone_number (default: 15550001234). */
  displayPhoneNumber?: string;
  /** The WhatsApp Business Account id of webhook entries (default: 100000000000001). */
  businessAccountId?: string;
  /** Milliseconds before each of the `sent` and `delivered` status webhooks (default: 150). */
  statusDelayMs?: number;
  /** Hours after the user's last message in which Memo may send free-form messages; 0 = no limit (default: 24). */
  serviceWindowHours?: number;
  /** Milliseconds "typing…" shows when no message follows (default: 25000, as on WhatsApp). */
  typingTimeoutMs?: number;
  /** Milliseconds the app's webhook may take to answer (default: 20000). */
  webhookTimeoutMs?: number;
  /** Milliseconds between SSE heartbeats (default: 15000). */
  heartbeatMs?: number;
  /** Messages kept per phone (default: 500). */
  maxMessagesPerPhone?: number;
  /** Bytes of media kept in all, oldest evicted first (default: 50 MB). */
  maxMediaBytes?: number;
  /** The service's DATA_DIR: conversations and media are kept in `<dataDir>/simulator/` across restarts (default: in memory only). */
  dataDir?: string;
  /** Milliseconds a save to dataDir waits for more changes (default: 500). */
  saveDelayMs?: number;
  /** Host names it answers to besides localhost, 127.0.0.1 and [::1] (SIMULATOR_ALLOWED_HOSTS; default: none). */
  allowedHosts?: readonly string[];
}

export interface Simulator {
  /** Routes: `/` (page), `/events`, `/api/*`, `/media/:id`, `/graph/*`. */
  router: Router;
  /** Ends event streams, timers and pending webhooks. Call before draining in-flight requests. */
  close: () => void;
}

export function createSimulator(options: SimulatorOptions): Simulator {
  const persistence = openPersistence(options);
  const engine = new SimulatorEngine({
    webhookUrl: options.webhookUrl,
    ...(options.appSecret !== undefined ? { appSecret: options.appSecret } : {}),
    business: {
      accountId: options.businessAccountId ?? "100000000000001",
      displayPhoneNumber: options.displayPhoneNumber ?? "15550001234",
      phoneNumberId: options.phoneNumberId,
    },
    logger: options.logger,
    clock: options.clock ?? Date.now,
    statusDelayMs: options.statusDelayMs ?? 150,
    serviceWindowMs: (options.serviceWindowHours ?? 24) * 60 * 60 * 1000,
    typingTimeoutMs: options.typingTimeoutMs ?? 25_000,
    webhookTimeoutMs: options.webhookTimeoutMs ?? 20_000,
    limits: {
      messagesPerPhone: options.maxMessagesPerPhone ?? DEFAULT_LIMITS.messagesPerPhone,
      mediaBytes: options.maxMediaBytes ?? DEFAULT_LIMITS.mediaBytes,
    },
    ...(persistence ? { persistence } : {}),
  });
  const page = pageApiRoutes({
    engine,
    ...(options.heartbeatMs !== undefined ? { heartbeatMs: options.heartbeatMs } : {}),
  });
  const router = Router();
  // First: no page, stream, API or Graph API call from another machine, another host name
  // (DNS rebinding) or another site's page gets through.
  router.use(localOnly(options.logger.child({ component: "whatsapp-simulator" }), options.allowedHosts));
  router.use(
    "/graph",
    graphApiRoutes({ engine, phoneNumberId: options.phoneNumberId, publicUrl: options.publicUrl }),
  );
  router.use(page.router);
  return {
    router,
    close: () => {
      page.close();
      engine.close();
    },
  };
}

/** The folder store under dataDir; undefined (in memory) without one or when it cannot be made. */
function openPersistence(options: SimulatorOptions): SimulatorPersistence | undefined {
  if (options.dataDir === undefined) return undefined;
  const dir = path.join(path.resolve(options.dataDir), "simulator");
  try {
    return new FilePersistence({
      dir,
      logger: options.logger.child({ component: "whatsapp-simulator" }),
      ...(options.saveDelayMs !== undefined ? { saveDelayMs: options.saveDelayMs } : {}),
    });
  } catch (error) {
    options.logger.warn(
      { err: error, dir },
      "cannot use the simulator's folder; chats will not survive a restart",
    );
    return undefined;
  }
}
