import { existsSync } from "node:fs";
import { ConfigError, loadConfig } from "../config/env.js";
import { startService, type StartOptions } from "./server.js";
import { MemoError, describeError } from "../utils/errors.js";
import { createLogger } from "../utils/logger.js";

/** Prints one plain line (no stack) and ends the process: for start-up failures a person must fix. */
function fail(message: string): never {
  process.stderr.write(`memo: ${message}\n`);
  process.exit(1);
}

/**
 * Runs the service as a process: reads `.env` and the environment, starts, and stops gracefully
 * on SIGTERM/SIGINT (exit 0 when in-flight work finished in time, 1 otherwise).
 */
export async function main(options: Pick<StartOptions, "extraRoutes"> = {}): Promise<void> {
  // Variables already in the environment win over the file.
  if (existsSync(".env")) process.loadEnvFile(".env");

  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) fail(error.message);
    throw error;
  }

  const logger = createLogger(config.logLevel, undefined, { redact: config.logRedact });
  // Errors we cause are logged with context and never take the process down.
  process.on("unhandledRejection", (reason) => logger.error({ err: reason }, "unhandled promise rejection"));
  process.on("uncaughtException", (error) => logger.error({ err: error }, "uncaught exception"));

  let service;
  try {
    service = await startService(config, { logger, ...options });
  } catch (error) {
    if (error instanceof MemoError || (error as NodeJS.ErrnoException).code === "EADDRINUSE") {
      fail(`cannot start: ${describeError(error)}`);
    }
    logger.fatal({ err: error }, "start-up failed");
    fail(`cannot start: ${describeError(error)}`);
  }

  const running = service;
  if (running.simulatorUrl) {
    // For the person who just ran `npm start`: where to talk to Memo.
    process.stderr.write(`\nMemo is running. Chat with it in your browser: ${running.simulatorUrl}\n\n`);
  }
  let signals = 0;
  const onSignal = (signal: NodeJS.Signals) => {
    signals += 1;
    if (signals > 1) {
      logger.warn({ signal }, "second signal; exiting now");
      process.exit(1);
    }
    running.shutdown(signal).then(
      (clean) => process.exit(clean ? 0 : 1),
      (error: unknown) => {
        logger.error({ err: error }, "shutdown failed");
        process.exit(1);
      },
    );
  };
  process.on("SIGTERM", onSignal);
  process.on("SIGINT", onSignal);
}
