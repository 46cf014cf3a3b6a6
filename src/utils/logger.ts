import { pino, type DestinationStream, type Logger, type LevelWithSilent } from "pino";

export type { Logger };

/** JSON logs, one line per event, on stdout unless a destination is given (tests). */
export function createLogger(level: LevelWithSilent = "info", destination?: DestinationStream): Logger {
  const options = {
    level,
    base: { service: "memo" },
    timestamp: pino.stdTimeFunctions.isoTime,
    // Credentials never reach the logs, whatever object they ride in on.
    redact: {
      paths: ["*.password", "*.accessToken", "*.apiKey", "*.appSecret", "req.headers.authorization"],
      censor: "[redacted]",
    },
  };
  return destination ? pino(options, destination) : pino(options);
}
