import { randomUUID } from "node:crypto";
import express, { type ErrorRequestHandler, type Express, type RequestHandler } from "express";
import type pg from "pg";
import type { Migration } from "../db/migrations/index.js";
import { healthRoutes } from "../transport/http/healthRoute.js";
import type { InFlightWork } from "../utils/inFlightWork.js";
import type { Logger } from "../utils/logger.js";

/** What the HTTP layer is built from; everything is injected so tests build the app in-process. */
export interface AppDeps {
  logger: Logger;
  pool: pg.Pool;
  migrations: readonly Migration[];
  inFlight: InFlightWork;
  isShuttingDown: () => boolean;
  /** Mounts further routes before the 404 and error handlers (later features, tests). */
  extraRoutes?: (app: Express) => void;
}

declare module "express-serve-static-core" {
  interface Request {
    /** Correlates the request's log lines; echoed in the x-request-id response header. */
    id: string;
  }
}

/** Accepts a caller's request id only when it is short and plain, so it cannot forge log lines. */
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** A calendar feed's address is its credential: the phone and signature never reach a log. */
function loggedPath(path: string): string {
  return path.startsWith("/calendar/") ? "/calendar/[redacted]" : path;
}

function requestContext(deps: AppDeps): RequestHandler {
  return (req, res, next) => {
    const given = req.get("x-request-id");
    req.id = given && REQUEST_ID.test(given) ? given : randomUUID();
    res.setHeader("x-request-id", req.id);
    const started = performance.now();
    const end = deps.inFlight.begin();
    // 'close' fires for finished and aborted responses alike, so the count never leaks.
    res.on("close", () => {
      end();
      deps.logger.debug(
        {
          requestId: req.id,
          method: req.method,
          path: loggedPath(req.path),
          status: res.statusCode,
          ms: Math.round(performance.now() - started),
        },
        "request",
      );
    });
    next();
  };
}

function errorHandler(logger: Logger): ErrorRequestHandler {
  return (error: unknown, req, res, _next) => {
    const status =
      typeof (error as { status?: unknown })?.status === "number"
        ? (error as { status: number }).status
        : 500;
    if (status >= 500) {
      logger.error(
        { err: error, requestId: req.id, method: req.method, path: loggedPath(req.path) },
        "request failed",
      );
    }
    if (res.headersSent) {
      res.end();
      return;
    }
    // Never a stack trace or an internal message in the body.
    res.status(status).json({ error: status >= 500 ? "internal_error" : "bad_request", requestId: req.id });
  };
}

/** Builds the Express app without listening, so routes can be exercised in-process. */
export function createApp(deps: AppDeps): Express {
  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", true);
  app.use(requestContext(deps));
  app.use(
    healthRoutes({
      pool: deps.pool,
      migrations: deps.migrations,
      isShuttingDown: deps.isShuttingDown,
      logger: deps.logger,
    }),
  );
  deps.extraRoutes?.(app);
  app.use((req, res) => {
    res.status(404).json({ error: "not_found", requestId: req.id });
  });
  app.use(errorHandler(deps.logger));
  return app;
}
