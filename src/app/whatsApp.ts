import type { Router } from "express";
import type { AppConfig } from "../config/env.js";
import type { Database } from "../db/database.js";
import { PgInboxRepository } from "../db/repositories/inboxRepository.js";
import { PgOutboundMessageRepository } from "../db/repositories/outboundMessageRepository.js";
import type { Memo } from "./createMemoRuntime.js";
import { webhookRoutes } from "../transport/whatsapp/webhookRoute.js";
import { createSimulator } from "../transport/simulator/index.js";
import type { InFlightWork } from "../utils/inFlightWork.js";
import type { Logger } from "../utils/logger.js";
import { scannedPageReader } from "../services/documents/readScannedPages.js";
import { createTranscriber, type Transcriber } from "../services/media/transcriber.js";
import { createSpeaker, type Speaker } from "../services/media/speech.js";
import type { SendMetrics, WebhookMetrics } from "../services/metrics/metrics.js";
import { Onboarding } from "../transport/onboarding/onboarding.js";
import { ReminderActions } from "../services/reminder/reminderActions.js";
import { HouseholdActions } from "../services/household/householdActions.js";
import { HouseholdService } from "../services/household/householdService.js";
import { HouseholdSharing } from "../services/household/householdSharing.js";
import { createHouseholdCapability } from "../graph/capabilities/household/householdCapability.js";
import type { Delivery } from "../db/repositories/deliveryLedger.js";
import { GraphApiClient } from "../transport/whatsapp/graphApiClient.js";
import { InboundProcessor } from "../transport/whatsapp/inboundProcessor.js";
import { InboundRouter } from "../transport/whatsapp/inboundRouter.js";
import { InboxWorker } from "../transport/whatsapp/inboxWorker.js";
import { InboxWriter } from "../transport/whatsapp/inboxWriter.js";
import { PgPhoneLeases } from "../transport/whatsapp/phoneLocks.js";
import { PgPhoneLeaseRepository } from "../db/repositories/phoneLeaseRepository.js";
import { householdStorage, reminderActionStorage, reminderStorage } from "../db/storage.js";
import { WeeklyReview } from "../services/reminder/weeklyReview.js";
import { calendarDigestSource } from "../graph/capabilities/calendar/calendarCapability.js";
import { PgUndoRepository } from "../db/repositories/undoRepository.js";
import { WhatsAppSender } from "../transport/whatsapp/whatsAppSender.js";
import { VoiceReplies } from "../transport/whatsapp/voiceReplies.js";
import { DebugForwarderService } from "../transport/whatsapp/debugForwarder.js";
import type { DocumentOfferMaker, DocumentPageReader } from "../types/document.js";

/** A message Memo sent that WhatsApp reports as failed. */
export interface DeliveryFailure {
  waMessageId: string;
  errorCode?: number;
  errorTitle?: string;
}

/** Where the simulator is mounted, and its Graph API stand-in under it. */
export const SIMULATOR_PATH = "/dev/whatsapp";

export interface WhatsAppOptions {
  config: AppConfig;
  db: Pick<Database, "kind" | "pool">;
  memo: Memo;
  logger: Logger;
  inFlight?: InFlightWork;
  /** The service's own base URL, known once it listens (the simulator posts to it). */
  serviceUrl: () => string;
  /** Speech-to-text instead of the configured one (tests). */
  transcriber?: Transcriber | null;
  /** Text-to-speech instead of the configured one (tests); null: none, replies stay text. */
  speaker?: Speaker | null;
  /** Options of the inbox worker the tests set (fast retries, polls). */
  worker?: { pollIntervalMs?: number; retryDelayMs?: (attempt: number) => number };
  /** The phone leases' monotonic clock (default: performance.now); tests move it to stand for a stall. */
  leaseClock?: () => number;
  /** Webhook latency, failed deliveries and failed sends (default: not counted). */
  metrics?: WebhookMetrics & SendMetrics;
  /**
   * Sends household messages (invitations, notices) inserted in the delivery ledger: the reminder
   * service's `send`, known once it exists (default: none now; the scheduler's takeover sends them).
   */
  deliver?: (deliveries: readonly Delivery[]) => Promise<unknown>;
  /** Makes the numbered offer of what a stored document proposes (default: the runtime's; null: none). */
  documentOffers?: DocumentOfferMaker | null;
  /** Reads scanned PDFs' pages through the image model (default: none: "could not be read"). */
  pageReader?: DocumentPageReader | null;
}

/**
 * The WhatsApp transport: the webhook, the durable inbox and its worker, the outbound client and
 * sender, onboarding, and (outside production, without an access token) the local simulator.
 */
export function createWhatsApp(options: WhatsAppOptions) {
  const { config, db, memo, logger } = options;
  const settings = config.whatsapp;
  const clock = memo.clock;
  const inbox = new PgInboxRepository(db.pool);
  const outbound = new PgOutboundMessageRepository(db.pool);

  const simulator = settings.simulator
    ? createSimulator({
        webhookUrl: () => `${options.serviceUrl()}/webhook/whatsapp`,
        ...(settings.appSecret ? { appSecret: settings.appSecret } : {}),
        phoneNumberId: settings.phoneNumberId,
        publicUrl: () => `${options.serviceUrl()}${SIMULATOR_PATH}`,
        // Conversations survive restarts, like the rest of the local data.
        dataDir: config.dataDir,
        allowedHosts: settings.simulatorAllowedHosts,
        logger,
        clock,
      })
    : undefined;
  const graphUrl = simulator
    ? () => `${options.serviceUrl()}${SIMULATOR_PATH}/graph`
    : () => settings.graphUrl;
  const client =
    simulator || settings.accessToken
      ? new GraphApiClient({
          baseUrl: graphUrl,
          apiVersion: settings.apiVersion,
          phoneNumberId: settings.phoneNumberId,
          accessToken: settings.accessToken,
          timeoutMs: settings.timeoutMs,
          maxRetries: 3,
          logger,
          ...(options.metrics ? { metrics: options.metrics } : {}),
        })
      : null;
  if (!client)
    logger.warn("WHATSAPP_ACCESS_TOKEN is not set and the simulator is off: replies will not be sent");

  const sender = new WhatsAppSender({
    client,
    outbound,
    memory: memo.memory,
    logger,
    sendConcurrency: settings.sendConcurrency,
  });
  // Answers by voice: to a voice note, or to a user who asked for them (LLM_SPEECH_MODEL).
  const voice = new VoiceReplies({
    speaker: options.speaker !== undefined ? options.speaker : createSpeaker(config, logger),
    client,
    sender,
    outbound,
    users: memo.users,
    budget: memo.budget,
    logger,
  });
  const onboarding = new Onboarding({
    users: memo.users,
    logger,
    clock,
    defaultTimeZone: config.defaultTimeZone,
    digestTime: config.scheduler.digestTime,
    capabilities: () => memo.capabilities.capabilities(),
    withModel: !!memo.llm,
    undo: { journal: new PgUndoRepository(db.pool), windowMs: config.undoWindowMinutes * 60_000 },
  });
  // "weekly review" shows it now, with the week's calendar events as the scheduled one has them.
  const weeklyReviewOnDemand = new WeeklyReview({
    storage: reminderStorage(db.pool),
    logger,
    clock,
    settings: config.scheduler,
  });
  weeklyReviewOnDemand.addSource(calendarDigestSource(memo.calendars));
  const actions = new ReminderActions({
    storage: reminderActionStorage(db.pool),
    users: memo.users,
    logger,
    clock,
    // A tap on Done or Snooze can be taken back with "undo", like the same change typed.
    undo: { journal: new PgUndoRepository(db.pool), windowMs: config.undoWindowMinutes * 60_000 },
    weekly: weeklyReviewOnDemand,
    speech: voice.available,
  });
  // Invitations and the household's notices; their taps and commands are answered without the graph.
  const householdDeps = {
    storage: householdStorage(db.pool),
    users: memo.users,
    deliver: (deliveries: readonly Delivery[]) => options.deliver?.(deliveries) ?? Promise.resolve(),
    logger,
    clock,
    settings: config.household,
  };
  const householdService = new HouseholdService(householdDeps);
  const householdSharing = new HouseholdSharing(householdDeps);
  // A household change cannot be undone: "undo" right after one says so.
  const householdUndo = {
    journal: new PgUndoRepository(db.pool),
    windowMs: config.undoWindowMinutes * 60_000,
  };
  const households = new HouseholdActions({
    households: householdService,
    sharing: householdSharing,
    clock,
    undo: householdUndo,
  });
  // What may need a question (which invitation an "accept" means, giving a bare "Dana: …") is the
  // graph's, asked through its question plane.
  if (!memo.capabilities.has("household"))
    memo.capabilities.register(
      createHouseholdCapability({
        households: householdService,
        sharing: householdSharing,
        users: memo.users,
        undo: householdUndo,
      }),
    );
  /** Listeners of "failed" delivery statuses (the scheduler). */
  const failureListeners: ((update: DeliveryFailure) => Promise<void>)[] = [];
  // A voice note that failed after WhatsApp accepted it, when it was the whole answer, goes as text.
  failureListeners.push((update) => voice.onDeliveryFailed(update));
  // Every message goes one way: the router answers what is not the graph's, else the graph.
  const router = new InboundRouter({ onboarding, actions, households, memory: memo.memory, sender });
  const processor = new InboundProcessor({
    router,
    runtime: memo.runtime,
    users: memo.users,
    outbound,
    sender,
    onboarding,
    client,
    llm: memo.llm,
    transcriber: options.transcriber !== undefined ? options.transcriber : createTranscriber(config, logger),
    documents: memo.documents,
    // The offer of what a document proposes: the runtime's (a model's titles when one is configured).
    offers: options.documentOffers !== undefined ? options.documentOffers : memo.offers,
    pageReader:
      options.pageReader !== undefined ? options.pageReader : memo.llm ? scannedPageReader(memo.llm) : null,
    voice,
    logger,
    clock,
  });
  // PGlite: one process owns the data folder, so leases left by its previous run are stale.
  const locks = new PgPhoneLeases(new PgPhoneLeaseRepository(db.pool), {
    ttlSeconds: config.inbox.leaseSeconds,
    exclusive: db.kind === "pglite",
    logger,
    ...(options.leaseClock ? { elapsed: options.leaseClock } : {}),
  });
  const worker = new InboxWorker({
    inbox,
    locks,
    handler: processor,
    logger,
    ...(options.inFlight ? { inFlight: options.inFlight } : {}),
    concurrency: config.inbox.concurrency,
    maxAgeMs: config.inbox.maxAgeMs,
    maxAttempts: config.inbox.maxAttempts,
    clock,
    ...options.worker,
  });

  // Test phones' webhooks also go to a developer's Memo (DEBUG_FORWARD_URL), when configured.
  const debugForwarder = settings.debugForward
    ? new DebugForwarderService({ ...settings.debugForward, logger })
    : undefined;
  if (debugForwarder)
    logger.info(
      { event: "DEBUG_FORWARD_ON", phones: settings.debugForward?.phones.length },
      "webhooks of the debug phones are forwarded to DEBUG_FORWARD_URL",
    );

  const routers: { path: string; router: Router }[] = [
    {
      path: "/",
      router: webhookRoutes({
        logger,
        ...(settings.appSecret ? { appSecret: settings.appSecret } : {}),
        ...(settings.verifyToken ? { verifyToken: settings.verifyToken } : {}),
        // The simulator sends this id too, so it keeps working.
        phoneNumberId: settings.phoneNumberId,
        inbox: new InboxWriter(inbox),
        outbound,
        onStored: () => worker.kick(),
        clock,
        ...(options.metrics ? { metrics: options.metrics } : {}),
        ...(debugForwarder ? { debugForwarder } : {}),
        onDeliveryFailed: async (update) => {
          for (const listener of failureListeners) await listener(update);
        },
      }),
    },
    ...(simulator ? [{ path: SIMULATOR_PATH, router: simulator.router }] : []),
  ];

  return {
    routers,
    worker,
    inbox,
    outbound,
    sender,
    client,
    simulator,
    /** Hears every "failed" delivery status the webhook records. */
    onDeliveryFailed(listener: (update: DeliveryFailure) => Promise<void>): void {
      failureListeners.push(listener);
    },
    /** Stops taking work; resolves when the turns running now have ended. */
    stop: () => worker.stop(),
    /** Lets the phone locks and the simulator go (after stop, or when giving up on it). */
    async release(): Promise<void> {
      simulator?.close();
      // Forwards under way end within their timeout.
      await debugForwarder?.idle();
      await locks.close();
    },
  };
}

export type WhatsApp = ReturnType<typeof createWhatsApp>;
