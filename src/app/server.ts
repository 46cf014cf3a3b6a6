import { once } from "node:events";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { BaseCheckpointSaver } from "@langchain/langgraph";
import type { Express } from "express";
import { createApp } from "./httpApp.js";
import type { AppConfig } from "../config/env.js";
import { createCheckpointer } from "../db/checkpointer.js";
import { openDatabase, type Database } from "../db/database.js";
import { migrate } from "../db/migrate.js";
import { reminderStorage } from "../db/storage.js";
import { MIGRATIONS } from "../db/migrations/index.js";
import { PgCalendarEventRepository } from "../db/repositories/calendarEventRepository.js";
import { Housekeeping } from "../db/repositories/housekeeping.js";
import { PgInboxRepository } from "../db/repositories/inboxRepository.js";
import { PgGoogleAccountRepository } from "../db/repositories/googleAccountRepository.js";
import { PgLocalSecretRepository } from "../db/repositories/localSecretRepository.js";
import type { UserRepository } from "../db/repositories/userRepository.js";
import { createMemoRuntime, type Memo } from "./createMemoRuntime.js";
import { createWhatsApp, SIMULATOR_PATH, type WhatsApp, type WhatsAppOptions } from "./whatsApp.js";
import { calendarFeedRoutes, calendarFeedUrl } from "../transport/http/calendarFeedRoute.js";
import { metricsRoutes } from "../transport/http/metricsRoute.js";
import { resolveLLMConfig } from "../config/llmConfig.js";
import { Metrics } from "../services/metrics/metrics.js";
import { googleAuthRoutes } from "../transport/http/googleAuthRoute.js";
import { calendarDigestSource } from "../graph/capabilities/calendar/calendarCapability.js";
import { createGoogleAccounts, GOOGLE_AUTH_PATH } from "../services/google/googleAccountService.js";
import { deriveKey, loadSecretKey } from "../services/google/secrets.js";
import { setPhoneTagKey } from "../utils/phone.js";
import { ReminderService } from "../services/reminder/reminderService.js";
import { SchedulerService } from "../services/scheduler/schedulerService.js";
import { createMemoryJobs } from "../services/memory/memoryJobs.js";
import { InFlightWork } from "../utils/inFlightWork.js";
import { createTracing } from "../services/tracing/tracing.js";
import { tracedLLMService } from "../services/tracing/tracedLlmService.js";
import type { Logger } from "../utils/logger.js";

/** How often idle conversation windows leave the in-process cache (default: hourly). */
const MEMORY_CLEANUP_INTERVAL_MS = 60 * 60 * 1000;

/** A started service: its address, its shared resources, and the way to stop it. */
export interface RunningService {
  readonly url: string;
  readonly port: number;
  readonly db: Database;
  readonly checkpointer: BaseCheckpointSaver;
  readonly users: UserRepository;
  /** The conversation graph and its runtime; capabilities register on `memo.capabilities`. */
  readonly memo: Memo;
  readonly inFlight: InFlightWork;
  /** The WhatsApp transport: webhook, inbox worker, sender, simulator. */
  readonly whatsapp: WhatsApp;
  /** Reminders, nudges and digests; the cron jobs run them when SCHEDULER=on. */
  readonly reminders: ReminderService;
  readonly scheduler: SchedulerService;
  /** This service's Prometheus metrics (GET /metrics), on a registry of its own. */
  readonly metrics: Metrics;
  /** The local simulator's page, when it is on. */
  readonly simulatorUrl: string | undefined;
  /**
   * Stops taking requests, lets in-flight work finish within the shutdown timeout, then closes
   * the database. Resolves true when everything finished in time. Safe to call more than once.
   */
  shutdown(reason: string): Promise<boolean>;
}

export interface StartOptions {
  logger: Logger;
  /** Further routes to mount (later features, tests). */
  extraRoutes?: (app: Express) => void;
  /** Test seams of the WhatsApp transport (speech-to-text, worker timings). */
  whatsapp?: Pick<WhatsAppOptions, "transcriber" | "worker">;
  /** Test seams of the runtime (clock, LLM). */
  memo?: { clock?: () => number };
}

/** Opens the database, applies migrations, prepares the checkpointer and starts listening. */
export async function startService(config: AppConfig, options: StartOptions): Promise<RunningService> {
  const { logger } = options;
  const db = await openDatabase(config.database, logger);
  let server: Server | undefined;
  try {
    await migrate(db.pool, MIGRATIONS, logger);
    const checkpointer = await createCheckpointer(config.checkpointer, db.pool);
    let url = "";
    // Encrypts Google tokens and signs links; generated and kept in the database outside production.
    const secret = await loadSecretKey(new PgLocalSecretRepository(db.pool), config, logger);
    // Phone tags in logs and traces are keyed by the shared secret: the same tag on every instance.
    setPhoneTagKey(deriveKey(secret, "phone-tag"));
    const google = createGoogleAccounts({
      accounts: new PgGoogleAccountRepository(db.pool),
      config,
      logger,
      ...(options.memo?.clock ? { clock: options.memo.clock } : {}),
      secret,
      serviceUrl: () => url,
    });
    // One registry per service: turns, LLM calls, the webhook, the inbox, reminders, sends.
    const models = resolveLLMConfig(config.llm).nodes;
    const metrics = new Metrics({
      inbox: new PgInboxRepository(db.pool),
      logger,
      modelOf: (node) => models[node].model,
    });
    if (!config.metricsToken && config.env === "production")
      logger.warn("METRICS_TOKEN is not set: GET /metrics is open; keep it off the public internet");
    // LangSmith traces of every turn (LANGSMITH_TRACING=true); LangChain's own tracing is off regardless.
    const tracing = createTracing(config.tracing, logger);
    const memo = createMemoRuntime({
      tracing,
      config,
      pool: db.pool,
      checkpointer,
      logger,
      google,
      calendarFeedLink: (phone) => calendarFeedUrl(config.publicUrl ?? url, phone, secret),
      llmObservers: [metrics.llmObserver],
      metrics,
      ...options.memo,
    });
    const { users } = memo;
    // The window cache forgets idle users on every instance (the scheduler's hourly job also clears the table).
    const cleanup = setInterval(() => memo.memory.cleanup(), MEMORY_CLEANUP_INTERVAL_MS).unref();
    const inFlight = new InFlightWork();
    let shuttingDown = false;
    // Household messages are sent by the reminder service, created with the sender below.
    const late: { reminders?: ReminderService } = {};
    const whatsapp = createWhatsApp({
      config,
      db,
      memo,
      logger,
      inFlight,
      serviceUrl: () => url,
      metrics,
      deliver: (deliveries) => late.reminders?.send(deliveries) ?? Promise.resolve(),
      ...options.whatsapp,
    });

    const reminderRepositories = reminderStorage(db.pool);
    const reminders = new ReminderService({
      storage: reminderRepositories,
      sender: whatsapp.client ? whatsapp.sender : null,
      // The digest polish is traced as a turn of its own (trigger cron).
      llm: tracing && memo.llm ? tracedLLMService(memo.llm, tracing) : memo.llm,
      logger,
      clock: memo.clock,
      settings: config.scheduler,
      metrics,
    });
    late.reminders = reminders;
    whatsapp.onDeliveryFailed((update) => reminders.onDeliveryFailed(update));
    // Today's events join the morning digest.
    reminders.addDigestSource(calendarDigestSource(memo.calendars));
    // node-cron triggers; the database decides (D8). Also the hourly window clean-up.
    const scheduler = new SchedulerService({
      housekeeping: new Housekeeping(db.pool),
      schedule: reminderRepositories.repositories.schedule,
      reminders,
      memory: memo.memory,
      logger,
      clock: memo.clock,
      retentionDays: config.scheduler.retentionDays,
      memoryJobs: createMemoryJobs(memo.longTerm, memo.notes),
      undoWindowMs: config.undoWindowMinutes * 60_000,
    });
    // Notes stored while no embedding model was configured (or under another one) get theirs now.
    memo.notes.backfill.kick();

    const app = createApp({
      logger,
      pool: db.pool,
      migrations: MIGRATIONS,
      inFlight,
      isShuttingDown: () => shuttingDown,
      extraRoutes: (app) => {
        for (const { path, router } of whatsapp.routers) app.use(path, router);
        app.use(metricsRoutes({ metrics, ...(config.metricsToken ? { token: config.metricsToken } : {}) }));
        app.use(
          GOOGLE_AUTH_PATH,
          googleAuthRoutes({
            accounts: google,
            logger,
            // "Google is connected" in the chat, once the callback stored the tokens.
            notify: async (phone, text, language) => {
              await whatsapp.sender.send(phone, { text, options: [], language }, { memory: "append" });
            },
          }),
        );
        // The built-in calendar as a private iCalendar feed any calendar app can subscribe to.
        app.use(
          calendarFeedRoutes({
            users: memo.users,
            events: new PgCalendarEventRepository(db.pool),
            secret,
            logger,
          }),
        );
        options.extraRoutes?.(app);
      },
    });
    const listening = app.listen(config.port, config.host);
    server = listening;
    await Promise.race([
      once(listening, "listening"),
      once(listening, "error").then(([error]) => Promise.reject(error as Error)),
    ]);
    const port = (listening.address() as AddressInfo).port;
    // The address this process reaches itself at (the simulator posts to its own webhook).
    const own = ["0.0.0.0", "::", "::0"].includes(config.host) ? "127.0.0.1" : config.host;
    url = `http://${own.includes(":") ? `[${own}]` : own}:${port}`;
    const simulatorUrl = whatsapp.simulator ? `${url}${SIMULATOR_PATH}` : undefined;
    logger.info(
      {
        port,
        database: db.target,
        checkpointer: config.checkpointer,
        llm: memo.llm ? "configured" : "none",
        whatsapp: simulatorUrl ? "simulator" : "cloud api",
        ...(simulatorUrl ? { simulatorUrl } : {}),
      },
      "memo listening",
    );
    // Unfinished inbox rows from before a restart are picked up now.
    if (config.inbox.worker) whatsapp.worker.start();
    // What came due while the service was down is sent now, once, marked late.
    if (config.scheduler.enabled) scheduler.start();

    let stopping: Promise<boolean> | undefined;
    const shutdown = (reason: string): Promise<boolean> => {
      stopping ??= (async () => {
        shuttingDown = true;
        clearInterval(cleanup);
        logger.info({ reason, inFlight: inFlight.size }, "shutting down");
        const deadline = performance.now() + config.shutdownTimeoutMs;
        // Running turns finish first, while the server still listens: with the simulator on, their
        // replies go through this very server. No new turn starts.
        memo.notes.backfill.stop();
        const workerStopped = Promise.all([whatsapp.stop(), scheduler.stop()]).then(() =>
          // Summaries and facts of the last turns, and their cost records, are written before the pool closes.
          memo.longTerm.idle().then(() => memo.budget.idle()),
        );
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([
          workerStopped,
          new Promise((resolve) => (timer = setTimeout(resolve, config.shutdownTimeoutMs))),
        ]);
        clearTimeout(timer);
        const closed = new Promise<void>((resolve) => listening.close(() => resolve()));
        listening.closeIdleConnections();
        // The simulator's open event streams count as requests; end them so they do not hold the drain.
        whatsapp.simulator?.close();
        const drained = await inFlight.drain(Math.max(0, deadline - performance.now()));
        if (!drained) {
          logger.warn(
            { inFlight: inFlight.size, timeoutMs: config.shutdownTimeoutMs },
            "shutdown timed out; cutting in-flight work",
          );
        }
        // Whatever remains is idle keep-alive sockets, or work we have stopped waiting for.
        listening.closeAllConnections();
        await closed;
        // Turns cut short stay pending in the inbox and run again after the restart.
        if (drained) await workerStopped;
        // The last turns' traces reach LangSmith, within what is left of the shutdown timeout.
        if (tracing) await tracing.flush(Math.max(0, deadline - performance.now()));
        await whatsapp.release();
        await db.close();
        logger.info({ clean: drained }, "stopped");
        return drained;
      })();
      return stopping;
    };

    return {
      url,
      port,
      db,
      checkpointer,
      users,
      memo,
      inFlight,
      whatsapp,
      reminders,
      scheduler,
      metrics,
      simulatorUrl,
      shutdown,
    };
  } catch (error) {
    server?.close();
    await db.close().catch(() => undefined);
    throw error;
  }
}
