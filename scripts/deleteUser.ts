// `npm run delete-user -- --phone <number> [--yes]`: a data deletion request. Without --yes it
// only counts what Memo holds about the user; with --yes it revokes their Google access and
// erases everything, in one transaction. Reads the same settings as the service (.env, DATABASE_URL).
import { existsSync } from "node:fs";
import { parseArgs } from "node:util";
import { ConfigError, loadConfig } from "../src/config/env.js";
import { openDatabase } from "../src/db/database.js";
import { PgGoogleAccountRepository } from "../src/db/repositories/googleAccountRepository.js";
import { PgLocalSecretRepository } from "../src/db/repositories/localSecretRepository.js";
import { createGoogleAccounts } from "../src/services/google/googleAccountService.js";
import { deriveKey, loadSecretKey, storedSecretKey } from "../src/services/google/secrets.js";
import { countUserData, eraseUserData } from "../src/db/repositories/userDataRepository.js";
import { describeError } from "../src/utils/errors.js";
import { createLogger } from "../src/utils/logger.js";
import { normalizePhone, phoneTag, setPhoneTagKey } from "../src/utils/phone.js";

const HELP = `Usage: npm run delete-user -- --phone <number> [--yes]

Counts every row Memo holds about the user (tasks, lists, reminders, calendar events, notes,
memories, conversation, inbox and sent records, LLM usage, a paused question, the Google
connection, the user itself) and prints them as JSON. With --yes, revokes the user's Google
access at Google and erases all of it in one transaction.

Reads the service's settings (.env and the environment: DATABASE_URL or DATA_DIR, TOKEN_ENCRYPTION_KEY,
GOOGLE_*). Prints the user's tag, the id their log lines and LangSmith traces carry, so those can
be found and deleted too (see docs/OPERATIONS.md). Exit codes: 0 done, 2 bad arguments.`;

function usageError(message: string): never {
  process.stderr.write(`delete-user: ${message} (see --help)\n`);
  process.exit(2);
}

async function main(): Promise<void> {
  let args;
  try {
    args = parseArgs({
      options: { phone: { type: "string" }, yes: { type: "boolean" }, help: { type: "boolean", short: "h" } },
    }).values;
  } catch (error) {
    usageError(describeError(error));
  }
  if (args.help) {
    process.stdout.write(`${HELP}\n`);
    return;
  }
  if (!args.phone) usageError("--phone is required");
  let phone: string;
  try {
    phone = normalizePhone(args.phone);
  } catch {
    usageError(`not a phone number: ${args.phone}`);
  }
  if (existsSync(".env")) process.loadEnvFile(".env");
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) usageError(error.message);
    throw error;
  }
  const logger = createLogger("warn", process.stderr);
  const db = await openDatabase(config.database, logger);
  try {
    // Only read until --yes: no migration, no generated key (a dry run must change nothing).
    const secret = config.tokenKey ?? (await storedSecretKey(new PgLocalSecretRepository(db.pool)));
    if (secret) setPhoneTagKey(deriveKey(secret, "phone-tag"));
    // The tag is what their log lines carry; their LangSmith traces are in the thread named after it.
    const tag = secret ? phoneTag(phone) : null;
    const summary = { user: tag, langsmithThread: tag && `user-${tag}` };
    const found = await countUserData(db.pool, phone);
    if (!args.yes) {
      process.stdout.write(`${JSON.stringify({ ...summary, rows: found, erased: false })}\n`);
      process.stderr.write("Nothing was deleted. Run again with --yes to erase it.\n");
      return;
    }
    // Google first: once the row is gone, the tokens to revoke are gone too. Without a key no
    // token was ever stored.
    const google =
      secret &&
      createGoogleAccounts({
        accounts: new PgGoogleAccountRepository(db.pool),
        config,
        logger,
        secret,
        serviceUrl: () => "",
      });
    const revoked = google && google.configured ? await google.disconnect(phone) : false;
    // The refusals and limits kept past the erasure are under a hash keyed with the service's
    // secret: without one yet (a development database), the one the service would make is made now.
    if (!secret)
      setPhoneTagKey(
        deriveKey(await loadSecretKey(new PgLocalSecretRepository(db.pool), config, logger), "phone-tag"),
      );
    const erased = await eraseUserData(db.pool, phone);
    process.stdout.write(
      `${JSON.stringify({ ...summary, rows: erased, googleRevoked: revoked, erased: true })}\n`,
    );
  } finally {
    await db.close();
  }
}

await main();
