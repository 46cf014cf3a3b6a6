import { Writable } from "node:stream";
import { createLogger, type Logger } from "../../src/utils/logger.js";

/** The app's JSON logger, writing to lines the test can read back. */
export function captureLogs(): { logger: Logger; lines: () => Record<string, unknown>[] } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString("utf8").split("\n").filter(Boolean));
      done();
    },
  });
  return {
    logger: createLogger("debug", stream),
    lines: () => lines.map((l) => JSON.parse(l) as Record<string, unknown>),
  };
}
