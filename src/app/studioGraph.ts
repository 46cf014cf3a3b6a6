import { existsSync } from "node:fs";
import path from "node:path";
import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { loadConfig, type AppConfig } from "../config/env.js";
import { openDatabase } from "../db/database.js";
import { migrate } from "../db/migrate.js";
import { MIGRATIONS } from "../db/migrations/index.js";
import type { Delivery } from "../db/repositories/deliveryLedger.js";
import { PgUndoRepository } from "../db/repositories/undoRepository.js";
import { householdStorage } from "../db/storage.js";
import { createHouseholdCapability } from "../graph/capabilities/household/householdCapability.js";
import { buildMemoTurnGraph } from "../graph/memoGraph.js";
import { HouseholdService } from "../services/household/householdService.js";
import { HouseholdSharing } from "../services/household/householdSharing.js";
import { disableImplicitTracing } from "../services/tracing/tracing.js";
import { createLogger, type Logger } from "../utils/logger.js";
import { createMemoServices } from "./createMemoRuntime.js";

/**
 * The database of the dev server: an embedded one of its own, in `<DATA_DIR>/studio`, never the
 * service's (DATABASE_URL or `<DATA_DIR>/pglite`): Memo's scheduler sends the reminders and
 * household messages it finds there, so what a developer does in Studio must not land in it.
 */
function studioDatabase(config: AppConfig): AppConfig["database"] {
  return { kind: "pglite", dataDir: path.join(config.dataDir, "studio") };
}

/**
 * Memo's services for the dev server, dry for the outside world: no WhatsApp client exists, no
 * Google account is built (Gmail is not registered and every calendar is the built-in one, so no
 * email, invitation or Google change can happen), household messages to other members are only
 * logged, and no scheduler runs to send the reminders the turns create. The LLM is the one the
 * environment configures (none: only what Memo answers in code).
 */
async function createStudioGraph(config: AppConfig, logger: Logger) {
  const db = await openDatabase(studioDatabase(config), logger);
  await migrate(db.pool, MIGRATIONS, logger);
  const services = createMemoServices({ config, pool: db.pool, logger });
  const undo = { journal: new PgUndoRepository(db.pool), windowMs: config.undoWindowMinutes * 60_000 };
  const householdDeps = {
    storage: householdStorage(db.pool),
    users: services.users,
    // The member's message stays in this database's ledger, unsent: no sender exists here.
    deliver: (deliveries: readonly Delivery[]) => {
      logger.info(
        { event: "STUDIO_DRY_RUN", deliveries: deliveries.length },
        "household messages not sent (dev server)",
      );
      return Promise.resolve();
    },
    logger,
    clock: services.clock,
    settings: config.household,
  };
  services.capabilities.register(
    createHouseholdCapability({
      households: new HouseholdService(householdDeps),
      sharing: new HouseholdSharing(householdDeps),
      users: services.users,
      undo,
    }),
  );
  logger.info({ event: "STUDIO_READY", database: db.target }, "Memo's graph for the dev server (dry run)");
  return buildMemoTurnGraph(services.graphDeps);
}

let building: ReturnType<typeof createStudioGraph> | undefined;

/**
 * The graph of `langgraph.json`: Memo's graph for the LangGraph dev server (`npx
 * @langchain/langgraph-cli dev`), its input one turn, its services built once from `.env` and the
 * environment and dry for the outside world; no checkpointer (the dev server brings its own).
 */
export function makeGraph(_config?: LangGraphRunnableConfig) {
  if (!building) {
    // Variables already in the environment win over the file, as for the service.
    if (existsSync(".env")) process.loadEnvFile(".env");
    const config = loadConfig();
    const logger = createLogger(config.logLevel, process.stderr, { redact: config.logRedact });
    // The dev server traces every run to LangSmith by itself when LANGSMITH_TRACING=true, with
    // none of Memo's redaction (phone numbers, words): only a developer's explicit STUDIO_TRACING
    // lets it, as the service clears the same switches (createTracing).
    if (process.env.STUDIO_TRACING !== "true") disableImplicitTracing(logger);
    building = createStudioGraph(config, logger);
    // A failed build (a database that would not open) is tried again by the next run.
    building.catch(() => (building = undefined));
  }
  return building;
}
