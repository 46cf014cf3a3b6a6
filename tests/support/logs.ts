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

/** Where `line` holds `phone` in any form: its digits (with or without "+" and separators) or base64. */
export function phoneIn(line: string, phone: string): string | undefined {
  if (line.replace(/[\s().+-]/g, "").includes(phone)) return "digits";
  // Base64 of the number at any byte offset: decode every base64 run from each of its 4 phases.
  for (const run of line.match(/[A-Za-z0-9+/_-]{8,}/g) ?? []) {
    for (let phase = 0; phase < 4; phase++) {
      if (Buffer.from(run.slice(phase), "base64").toString("latin1").includes(phone)) return `base64 ${run}`;
    }
  }
  return undefined;
}
