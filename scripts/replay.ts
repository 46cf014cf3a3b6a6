// `npm run replay -- --phone <number> [--since <ISO>] [--base-url <url>] [--model <node>=<model>]`:
// re-runs a user's stored messages against the current graph in a scratch database and prints the
// old and new replies. With `--to-dev-server <url>` [--last N] they run in the LangGraph dev server
// instead, as one thread to step through and fork in LangGraph Studio. Reads the service's settings (.env and the environment: DATABASE_URL or
// DATA_DIR, the LLM variables, LANGSMITH_*); never writes to that database, never sends anything.
import { existsSync } from "node:fs";
import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import type pg from "pg";
import type { AppConfig } from "../src/config/env.js";
import type { ReplayedMessage } from "../src/app/replayUser.js";
import { describeError } from "../src/utils/errors.js";
import { normalizePhone, phoneTag, setPhoneTagKey } from "../src/utils/phone.js";

const HELP = `Usage: npm run replay -- --phone <number> [--since <ISO date>] [--base-url <url>] [--model <node>=<model>]...
       npm run replay -- --phone <number> --to-dev-server <url> [--since <ISO date>] [--last <N>]

Re-runs the user's stored messages, oldest first, through the current graph in a scratch database
(in memory) holding a copy of the user's data as it was at the start, each at its original time,
with the LLM of the current environment. Prints each message with Memo's old and new reply, and
how many replies changed. Nothing is sent to WhatsApp and the database is only read.

  --phone <number>         the user, as stored or written with + and spaces
  --since <ISO date>       replay messages from then on (2026-03-01 or 2026-03-01T08:00:00Z);
                           the conversation before it is copied as history (default: all stored)
  --base-url <url>         an OpenAI-compatible server instead of OPENAI_BASE_URL
  --model <node>=<model>   a model instead of LLM_<NODE>_MODEL; node: planner, resolver,
                           response, image, memory or fallback (repeatable)
  --to-dev-server <url>    replay into the LangGraph dev server at <url> (npx @langchain/langgraph-cli
                           dev: http://127.0.0.1:2024) as one thread, each turn node by node in
                           LangGraph Studio; redacted as LangSmith traces are: the phone becomes a
                           stand-in, message ids their tags, and the words go only with
                           LANGSMITH_INCLUDE_CONTENT=true. The dev server's LLM is its own.
  --last <N>               only the last N of the messages (with --to-dev-server)
  -h, --help               this text

Reads .env and the environment like the service: DATABASE_URL (or the embedded database in
DATA_DIR, copied first, so stop the service or point DATA_DIR at a copy), OPENAI_API_KEY,
LLM_*_MODEL, TOKEN_ENCRYPTION_KEY. With LANGSMITH_TRACING=true the replayed turns are traced as a
LangSmith thread of their own (metadata replay=true). Exit codes: 0 done, 1 failed, 2 bad arguments
or unknown user.`;

/** --model node names and the variables they stand for. */
const MODEL_VARIABLES: Record<string, string> = {
  planner: "LLM_PLANNER_MODEL",
  resolver: "LLM_RESOLVER_MODEL",
  response: "LLM_RESPONSE_MODEL",
  image: "LLM_IMAGE_MODEL",
  memory: "LLM_MEMORY_MODEL",
  fallback: "LLM_FALLBACK_MODEL",
};

/** An ISO 8601 date, with or without a time. */
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

const tty = Boolean(process.stdout.isTTY);
const paint = (code: string) => (text: string) => (tty ? `\u001b[${code}m${text}\u001b[0m` : text);
const dim = paint("2");
const bold = paint("1");
const green = paint("32");
const red = paint("31");

function usageError(message: string): never {
  process.stderr.write(`replay: ${message}\n`);
  process.exit(2);
}

/** The arguments, checked; exits 2 with one line on anything wrong. */
function parse(): {
  phone: string;
  since?: Date;
  env: Record<string, string>;
  devServer?: { url: string; last?: number };
} {
  let values;
  try {
    values = parseArgs({
      options: {
        phone: { type: "string" },
        since: { type: "string" },
        "base-url": { type: "string" },
        model: { type: "string", multiple: true },
        "to-dev-server": { type: "string" },
        last: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    }).values;
  } catch (error) {
    usageError(`${describeError(error)} (see --help)`);
  }
  if (values.help) {
    process.stdout.write(`${HELP}\n`);
    process.exit(0);
  }
  if (!values.phone) usageError("--phone is required (see --help)");
  let phone: string;
  try {
    phone = normalizePhone(values.phone);
  } catch {
    usageError(`--phone: not a phone number: ${values.phone}`);
  }
  let since: Date | undefined;
  if (values.since !== undefined) {
    since = new Date(values.since);
    if (!ISO_DATE.test(values.since.trim()) || Number.isNaN(since.getTime())) {
      usageError(`--since: not an ISO date (e.g. 2026-03-01 or 2026-03-01T08:00:00Z): ${values.since}`);
    }
  }
  const env: Record<string, string> = {};
  if (values["base-url"]) env.OPENAI_BASE_URL = values["base-url"];
  for (const spec of values.model ?? []) {
    const [node, model] = spec.split("=", 2);
    const variable = MODEL_VARIABLES[node ?? ""];
    if (!variable || !model) {
      usageError(
        `--model: expected <node>=<model> with node one of ${Object.keys(MODEL_VARIABLES).join(", ")}: ${spec}`,
      );
    }
    env[variable] = model;
  }
  const url = values["to-dev-server"];
  if (url !== undefined && !URL.canParse(url)) usageError(`--to-dev-server: not a URL: ${url}`);
  let last: number | undefined;
  if (values.last !== undefined) {
    last = Number(values.last);
    if (!Number.isInteger(last) || last < 1)
      usageError(`--last: not a positive whole number: ${values.last}`);
    if (url === undefined) usageError("--last goes with --to-dev-server (see --help)");
  }
  if (url !== undefined && (values["base-url"] || values.model))
    usageError("--base-url and --model do not go with --to-dev-server: the dev server's LLM is its own");
  return {
    phone,
    ...(since ? { since } : {}),
    env,
    ...(url !== undefined ? { devServer: { url, ...(last !== undefined ? { last } : {}) } } : {}),
  };
}

/** The source database, opened to be read: Postgres as is; the embedded one through a copy of its folder. */
async function openSource(
  config: AppConfig,
): Promise<{ pool: pg.Pool; target: string; close: () => Promise<void> }> {
  const { default: pg } = await import("pg");
  const { PGLITE_EXTENSIONS, redactDatabaseUrl } = await import("../src/db/database.js");
  if (config.database.kind === "postgres") {
    const pool = new pg.Pool({
      connectionString: config.database.url,
      max: 1,
      connectionTimeoutMillis: config.database.connectTimeoutMs,
    });
    pool.on("error", () => undefined);
    return { pool, target: redactDatabaseUrl(config.database.url), close: () => pool.end() };
  }
  const folder = path.resolve(config.database.dataDir, "pglite");
  if (!existsSync(folder)) usageError(`no embedded database in ${folder} (set DATA_DIR, or DATABASE_URL)`);
  // PGlite writes to its folder even to read: it opens a copy, so the original is never touched.
  const copy = await mkdtemp(path.join(tmpdir(), "memo-replay-"));
  await cp(folder, copy, { recursive: true });
  const { PGlite } = await import("@electric-sql/pglite");
  const { createPglitePool } = await import("../src/db/pglitePool.js");
  const pglite = await PGlite.create({ dataDir: copy, extensions: PGLITE_EXTENSIONS });
  const pool = createPglitePool(pglite);
  return {
    pool,
    target: `pglite:${folder}`,
    close: async () => {
      await pool.end();
      await pglite.close();
      await rm(copy, { recursive: true, force: true });
    },
  };
}

/** A reply's lines under a label, continuation lines indented to the text. */
function block(label: string, text: string): string {
  const [first = "", ...rest] = text.split("\n");
  return [`  ${label.padEnd(5)} ${first}`, ...rest.map((line) => `        ${line}`)].join("\n");
}

function print(message: ReplayedMessage, index: number, total: number): void {
  const kind = message.type === "text" ? "" : dim(` (${message.type})`);
  const lines = [`${bold(`[${index + 1}/${total}]`)} ${message.at.toISOString()}${kind}`];
  lines.push(block("user", message.text || dim("(no text)")));
  lines.push(block("old", message.oldReply?.text ?? dim("(no reply stored)")));
  if (message.skip) {
    lines.push(dim(`        skipped: ${message.skip}`));
  } else {
    lines.push(block("new", message.newReply ?? ""));
    const waiting = message.status === "waiting" ? dim(" (asks a question)") : "";
    lines.push(`        ${message.changed ? red("changed") : green("unchanged")}${waiting}`);
  }
  process.stdout.write(`${lines.join("\n")}\n\n`);
}

/** The models the replay talks to, one line. */
async function describeLLM(config: AppConfig): Promise<string> {
  const { resolveLLMConfig } = await import("../src/config/llmConfig.js");
  if (!config.openai.apiKey && !config.llm.baseUrl) {
    return "none (OPENAI_API_KEY unset): only what is answered in code";
  }
  const { nodes, baseUrl } = resolveLLMConfig(config.llm);
  const models = `planner ${nodes.planner.model}, resolvers ${nodes["resolver:general"].model}, response ${nodes.responseWriter.model}`;
  return `${models}${baseUrl ? ` at ${baseUrl}` : ""}`;
}

async function main(): Promise<void> {
  const args = parse();
  // Loaded once the arguments are known good: a mistyped flag is answered at once.
  const { ConfigError, loadConfig } = await import("../src/config/env.js");
  const { deriveKey } = await import("../src/services/google/secrets.js");
  const { readOnlySnapshot } = await import("../src/db/repositories/replayRepository.js");
  const { storedSecretKey } = await import("../src/services/google/secrets.js");
  const { PgLocalSecretRepository } = await import("../src/db/repositories/localSecretRepository.js");
  const { replayUser, UnknownUserError } = await import("../src/app/replayUser.js");
  const { createTracing } = await import("../src/services/tracing/tracing.js");
  const { createLogger } = await import("../src/utils/logger.js");
  if (existsSync(".env")) process.loadEnvFile(".env");
  let config: AppConfig;
  try {
    config = loadConfig({ ...process.env, ...args.env });
  } catch (error) {
    if (error instanceof ConfigError) usageError(error.message);
    throw error;
  }
  const logger = createLogger("warn", process.stderr);
  const source = await openSource(config);
  const llm = await describeLLM(config);
  let unknownUser: string | undefined;
  try {
    // Tags as the service makes them (its key), so the user's thread id printed is the real one.
    const secret =
      config.tokenKey ??
      (await readOnlySnapshot(source.pool, (client) => storedSecretKey(new PgLocalSecretRepository(client))));
    if (secret) setPhoneTagKey(deriveKey(secret, "phone-tag"));
    if (args.devServer) {
      await toDevServer(source.pool, config, args.phone, args.since, args.devServer);
      return;
    }
    const tracing = createTracing(config.tracing, logger, { metadata: { replay: true } });
    const stamp = new Date().toISOString().replace(/[-:]|\.\d+/g, "");
    const threadId = tracing ? `replay-${phoneTag(args.phone)}-${stamp}` : undefined;

    const report = await replayUser({
      source: source.pool,
      config,
      phone: args.phone,
      ...(args.since ? { since: args.since } : {}),
      logger,
      tracing,
      ...(threadId ? { threadId } : {}),
      onStart: ({ total, start, copied }) => {
        const rows = Object.entries(copied).map(([table, n]) => `${table} ${n}`);
        process.stdout.write(
          [
            bold(
              `Replay of ${args.phone}: ${total} message${total === 1 ? "" : "s"} since ${start.toISOString()}`,
            ),
            `Database: ${source.target} (read only)`,
            `Scratch copy of the user's data before then: ${rows.join(", ") || "nothing"}`,
            `LLM: ${llm}`,
            `LangSmith: ${
              threadId
                ? `this replay is thread ${threadId}; the user's own thread is user-${phoneTag(args.phone)}`
                : `off; the user's thread (when on) is user-${phoneTag(args.phone)}`
            }`,
            "",
            "",
          ].join("\n"),
        );
      },
      onMessage: print,
    });
    await tracing?.flush(10_000);

    const replayed = report.messages.filter((m) => !m.skip);
    const changed = replayed.filter((m) => m.changed).length;
    const skipped = report.messages.length - replayed.length;
    process.stdout.write(
      `${bold("Summary:")} ${replayed.length} replayed: ${changed} changed, ${replayed.length - changed} unchanged` +
        `${skipped > 0 ? `; ${skipped} skipped` : ""}.\n`,
    );
  } catch (error) {
    if (!(error instanceof UnknownUserError)) throw error;
    unknownUser = error.message;
  } finally {
    await source.close();
  }
  if (unknownUser) usageError(`${unknownUser}: ${args.phone}`);
}

/** `--to-dev-server`: the user's messages into the dev server as one thread, printed as they run. */
async function toDevServer(
  source: pg.Pool,
  config: AppConfig,
  phone: string,
  since: Date | undefined,
  devServer: { url: string; last?: number },
): Promise<void> {
  const { replayIntoDevServer } = await import("../src/app/replayToDevServer.js");
  // Redacted as traces are: the words only with LANGSMITH_INCLUDE_CONTENT (config.tracing needs tracing on).
  const includeContent = config.tracing?.includeContent ?? process.env.LANGSMITH_INCLUDE_CONTENT === "true";
  const replay = await replayIntoDevServer({
    source,
    phone,
    url: devServer.url,
    includeContent,
    ...(since ? { since } : {}),
    ...(devServer.last !== undefined ? { last: devServer.last } : {}),
    onMessage: (turn, index, total) => {
      const lines = [
        `${bold(`[${index + 1}/${total}]`)} ${turn.at.toISOString()}${turn.resumed ? dim(" (answer)") : ""}`,
      ];
      lines.push(block("user", turn.text));
      lines.push(block("memo", turn.reply));
      if (turn.status === "waiting") lines.push(dim("        asks a question"));
      process.stdout.write(`${lines.join("\n")}\n\n`);
    },
  });
  const studio = `https://smith.langchain.com/studio/?baseUrl=${devServer.url}`;
  process.stdout.write(
    `${bold("Dev server thread:")} ${replay.threadId} (${replay.turns.length} turns as ${replay.phone}` +
      `${includeContent ? "" : ", words redacted: every message was [redacted], so every reply is Memo's help text; LANGSMITH_INCLUDE_CONTENT=true sends the words"})\n` +
      `Open LangGraph Studio at ${studio} and pick the thread under Threads.\n`,
  );
}

try {
  await main();
} catch (error) {
  process.stderr.write(`replay: ${describeError(error)}\n`);
  process.exit(1);
}
