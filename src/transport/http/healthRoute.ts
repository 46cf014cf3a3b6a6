import { Router } from "express";
import type pg from "pg";
import { pendingMigrations } from "../../db/migrate.js";
import type { Migration } from "../../db/migrations/index.js";
import type { Logger } from "../../utils/logger.js";

/** What /readyz needs to know. */
export interface ReadinessDeps {
  pool: pg.Pool;
  migrations: readonly Migration[];
  /** True once shutdown has begun: the instance stops taking traffic. */
  isShuttingDown: () => boolean;
  /** Milliseconds the database may take to answer before the instance counts as not ready (default: 2000). */
  timeoutMs?: number;
  /** Where the database's error goes: /readyz answers anyone, so its body holds a status word only. */
  logger: Logger;
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** GET /healthz: the process is alive. GET /readyz: the database answers and its schema is current. */
export function healthRoutes(deps: ReadinessDeps): Router {
  const router = Router();
  /** The last database error logged: a probe every few seconds logs an outage once, not per probe. */
  let lastLogged: string | undefined;
  router.get("/healthz", (_req, res) => {
    res.json({ status: "ok" });
  });
  router.get("/readyz", async (_req, res) => {
    if (deps.isShuttingDown()) {
      res.status(503).json({ status: "shutting_down" });
      return;
    }
    try {
      const pending = await withTimeout(
        pendingMigrations(deps.pool, deps.migrations),
        deps.timeoutMs ?? 2000,
        "database",
      );
      if (pending.length > 0) {
        res.status(503).json({ status: "migrations_pending", pending: pending.map((m) => m.name) });
        return;
      }
      lastLogged = undefined;
      res.json({ status: "ready" });
    } catch (error) {
      // The error names the database, its host or its state: for the operator's logs only.
      const detail = error instanceof Error ? error.message : String(error);
      if (detail !== lastLogged) {
        lastLogged = detail;
        deps.logger.warn({ err: error, event: "READINESS_FAILED" }, "not ready: the database did not answer");
      }
      res.status(503).json({ status: "database_unavailable" });
    }
  });
  return router;
}
