import pg from "pg";
import { loadConfig } from "../src/config/env.js";
import { migrate } from "../src/db/migrate.js";
import { MIGRATIONS } from "../src/db/migrations/index.js";
import { PgConversationStore } from "../src/db/repositories/conversationStore.js";
import { PgOutboundMessageRepository } from "../src/db/repositories/outboundMessageRepository.js";
import { reminderStorage } from "../src/db/storage.js";
import { MemoryService } from "../src/services/memory/index.js";
import { ReminderService } from "../src/services/reminder/reminderService.js";
import type { PassReport } from "../src/services/scheduler/jobs.js";
import { GraphApiClient } from "../src/transport/whatsapp/graphApiClient.js";
import { WhatsAppSender } from "../src/transport/whatsapp/whatsAppSender.js";
import { createLogger } from "../src/utils/logger.js";
import { FakeGraphApi } from "../tests/support/fakeGraphApi.js";
import { round } from "./measure.js";
import { withPglite } from "./pglite.js";
import { NO_POSTGRES, postgresDatabase } from "./postgres.js";
import { median, percentile } from "./stats.js";

const TASKS = 100_000;
const USERS = 10_000;
/** Tasks due at the tick, one per user (every 100th task). */
const DUE = 1_000;
/**
 * How the 1,000 due instants are laid out before the tick: all at the tick (reminders set for the
 * same HH:mm, which the minute's cron tick or the wake timer starts on time: the lag the target
 * is about), and spread over the whole minute before it (the worst case with no wake timer:
 * the oldest has waited a minute before the pass even starts).
 */
const AT_THE_TICK_MS = 0;
const SPREAD_MS = 60_000;
const ZONES = ["Asia/Jerusalem", "Europe/London", "America/New_York"] as const;
const TOKEN = "bench-token";
/** Round trips timed for the database's floor (one trivial query). */
const FLOOR_QUERIES = 50;

/** Local "HH:mm" in `zone`, `hours` from now: quiet hours that never hold the tick. */
function localClock(zone: string, hours: number): string {
  const at = new Date(Date.now() + hours * 60 * 60 * 1000);
  const text = new Intl.DateTimeFormat("en-GB", {
    timeZone: zone,
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).format(at);
  return text.slice(0, 5);
}

/**
 * 10,000 users who all wrote within the hour (inside WhatsApp's 24-hour window), their digests
 * scheduled for later today, a quarter with quiet hours (away from now); 100,000 tasks: every
 * 100th is one of the 1,000 due (one per user 0–999: one-time, daily or nudge), the others a mix
 * of upcoming one-time reminders, daily and weekly recurring ones, nudges, rung reminders not yet
 * done, plain tasks and finished ones (about half with a next ring ahead, the rest none).
 */
async function seed(pool: pg.Pool): Promise<void> {
  const quiet = Object.fromEntries(ZONES.map((z) => [z, [localClock(z, 3), localClock(z, 5)]]));
  await pool.query(
    `INSERT INTO users (phone, display_name, time_zone, language, last_inbound_at, digest_enabled,
                        digest_next_at, quiet_start, quiet_end)
     SELECT '97250' || lpad(i::text, 7, '0'), 'User ' || i, z.zone,
            CASE WHEN i % 2 = 0 THEN 'he' ELSE 'en' END,
            now() - (i % 3600) * interval '1 second',
            i % 5 <> 0,
            CASE WHEN i % 5 <> 0 THEN now() + (1 + i % 20) * interval '1 hour' END,
            CASE WHEN i % 4 = 0 THEN $2::jsonb -> z.zone ->> 0 END,
            CASE WHEN i % 4 = 0 THEN $2::jsonb -> z.zone ->> 1 END
       FROM generate_series(0, $1::int - 1) AS i,
            LATERAL (SELECT ($3::text[])[1 + i % 3] AS zone) AS z`,
    [USERS, JSON.stringify(quiet), [...ZONES]],
  );
  await pool.query(
    `INSERT INTO tasks (user_phone, text, category, due_at, reminder_offset_minutes, recurrence, time_zone,
                        next_fire_at, completed, completed_at, created_by_operation)
     SELECT '97250' || lpad(s.u::text, 7, '0'),
            CASE WHEN s.due THEN 'Due reminder ' ELSE 'Task ' END || s.g,
            CASE WHEN s.g % 3 = 0 THEN 'work' END,
            CASE WHEN s.due AND s.k % 10 < 5 THEN now() - interval '1 minute'
                 WHEN s.due THEN NULL
                 WHEN s.m < 25 THEN now() + (120 + (s.g * 37) % 43200) * interval '1 minute'
                 WHEN s.m >= 50 AND s.m < 70 THEN now() - (1 + (s.g * 37) % 43200) * interval '1 minute'
                 WHEN s.m >= 70 AND s.m < 85 AND s.g % 2 = 0 THEN now() + (s.g % 30) * interval '1 day'
                 END,
            CASE WHEN NOT s.due AND s.m < 25 AND s.g % 3 = 0 THEN 60 END,
            CASE WHEN s.due AND s.k % 10 >= 8 THEN '{"type":"nudge","intervalMinutes":60}'::jsonb
                 WHEN s.due AND s.k % 10 >= 5 THEN jsonb_build_object('type', 'daily', 'time', '08:00')
                 WHEN s.due THEN NULL
                 WHEN s.m >= 25 AND s.m < 40 THEN jsonb_build_object('type', 'daily', 'time',
                      lpad(((s.g * 13) % 24)::text, 2, '0') || ':' || lpad(((s.g * 7) % 60)::text, 2, '0'))
                 WHEN s.m >= 40 AND s.m < 45 THEN '{"type":"weekly","time":"09:00","days":[1,3]}'::jsonb
                 WHEN s.m >= 45 AND s.m < 50 THEN
                      jsonb_build_object('type', 'nudge', 'intervalMinutes', 30 * (1 + s.g % 4))
                 END,
            ($2::text[])[1 + s.u % 3],
            CASE WHEN s.due THEN now() - interval '1 minute'
                 WHEN s.m < 25 THEN now() + (120 + (s.g * 37) % 43200) * interval '1 minute'
                      - CASE WHEN s.g % 3 = 0 THEN interval '1 hour' ELSE interval '0' END
                 WHEN s.m < 45 THEN now() + (120 + (s.g * 53) % 604800) * interval '1 second'
                 WHEN s.m < 50 THEN now() + (1 + s.g % 30) * interval '1 minute'
                 END,
            NOT s.due AND s.m >= 85,
            CASE WHEN NOT s.due AND s.m >= 85 THEN now() - (s.g % 1000) * interval '1 hour' END,
            CASE WHEN s.due THEN 'due:' || s.k ELSE 'op:' || s.g END
       FROM (SELECT g, g % 100 = 0 AS due, g / 100 - 1 AS k,
                    CASE WHEN g % 100 = 0 THEN g / 100 - 1 ELSE g % $3::int END AS u,
                    (g * 7919) % 100 AS m
               FROM generate_series(1, $1::int) AS g) AS s`,
    [TASKS, [...ZONES], USERS],
  );
}

/**
 * Makes the 1,000 due tasks due again, at instants spread over the minute before `tickMs` (task
 * k, 60 ms apart, the oldest first), as they would be at a minute's tick: a one-time reminder due
 * then, a daily one at that local time, a nudge ringing then. Returns the rows armed.
 */
async function arm(pool: pg.Pool, tickMs: number, spreadMs: number): Promise<number> {
  const { rowCount } = await pool.query(
    `UPDATE tasks t SET next_fire_at = a.at,
            due_at = CASE WHEN t.recurrence IS NULL THEN a.at END,
            recurrence = CASE WHEN t.recurrence ->> 'type' = 'daily'
                              THEN jsonb_set(t.recurrence, '{time}',
                                   to_jsonb(to_char(a.at AT TIME ZONE t.time_zone, 'HH24:MI')))
                              ELSE t.recurrence END
       FROM (SELECT 'due:' || k AS op,
                    $1::timestamptz - $2::int * interval '1 millisecond'
                      + k * ($2::int / $3::int) * interval '1 millisecond' AS at
               FROM generate_series(0, $3::int - 1) AS k) AS a
      WHERE t.created_by_operation = a.op`,
    [new Date(tickMs), spreadMs, DUE],
  );
  return rowCount ?? 0;
}

/** The median round trip of a trivial query on this pool: the machine's and backend's floor. */
async function queryFloorMs(pool: pg.Pool): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < FLOOR_QUERIES; i++) {
    const started = performance.now();
    await pool.query("SELECT 1");
    samples.push(performance.now() - started);
  }
  return median(samples);
}

interface Tick {
  report: PassReport;
  armed: number;
  /** Seconds from each occurrence to its ledger sent_at. */
  lags: number[];
  /** Seconds from the tick (the pass's start) to each sent_at: what the pass itself added. */
  sinceTick: number[];
}

/** Arms the due tasks for a tick now and runs one real pass (real clock, real pacing). */
async function tick(pool: pg.Pool, reminders: ReminderService, spreadMs: number): Promise<Tick> {
  const armedAt = Date.now();
  const armed = await arm(pool, armedAt, spreadMs);
  const tickMs = Date.now();
  const report = await reminders.runDue();
  const { rows } = await pool.query<{ lag: number; since: number }>(
    `SELECT extract(epoch FROM sent_at - occurrence_at)::float8 AS lag,
            extract(epoch FROM sent_at - $1::timestamptz)::float8 AS since
       FROM reminder_deliveries
      WHERE created_at >= $2 AND status = 'sent'`,
    [new Date(tickMs), new Date(armedAt)],
  );
  return { report, armed, lags: rows.map((r) => r.lag), sinceTick: rows.map((r) => r.since) };
}

/** The service as the scheduler builds it, sending through the real client to the fake Graph API. */
function reminderService(pool: pg.Pool, graph: FakeGraphApi): ReminderService {
  const config = loadConfig({ NODE_ENV: "test" });
  const logger = createLogger("silent");
  const memory = new MemoryService(new PgConversationStore(pool), { clock: Date.now, logger });
  const client = new GraphApiClient({
    baseUrl: () => graph.baseUrl,
    apiVersion: config.whatsapp.apiVersion,
    phoneNumberId: config.whatsapp.phoneNumberId,
    accessToken: TOKEN,
    timeoutMs: config.whatsapp.timeoutMs,
    maxRetries: 3,
    logger,
  });
  const sender = new WhatsAppSender({
    client,
    outbound: new PgOutboundMessageRepository(pool),
    memory,
    logger,
  });
  return new ReminderService({
    storage: reminderStorage(pool),
    sender,
    llm: null,
    logger,
    clock: Date.now,
    settings: config.scheduler,
  });
}

const seconds = (values: number[], p: number) => (values.length > 0 ? round(percentile(values, p)) : null);

/** Seeds the database, runs two identical ticks (the second one shows the machine's noise). */
async function measure(backend: "pglite" | "postgres", pool: pg.Pool): Promise<Record<string, unknown>> {
  await migrate(pool, MIGRATIONS);
  const started = performance.now();
  await seed(pool);
  await pool.query("ANALYZE");
  const seedS = (performance.now() - started) / 1000;
  const graph = await FakeGraphApi.start({ accessToken: TOKEN });
  try {
    const reminders = reminderService(pool, graph);
    const floorMs = await queryFloorMs(pool);
    const first = await tick(pool, reminders, AT_THE_TICK_MS);
    const second = await tick(pool, reminders, AT_THE_TICK_MS);
    const spread = await tick(pool, reminders, SPREAD_MS);
    const config = loadConfig({ NODE_ENV: "test" }).scheduler;
    return {
      bench: "scheduler_tick",
      backend,
      tasks: TASKS,
      users: USERS,
      due: first.armed,
      claimed: first.report.claimed,
      claim_ms: round(first.report.claimMs),
      p50_lag_s: seconds(first.lags, 50),
      p99_lag_s: seconds(first.lags, 99),
      max_lag_s: first.lags.length > 0 ? round(Math.max(...first.lags)) : null,
      p99_since_tick_s: seconds(first.sinceTick, 99),
      sent: first.report.sent,
      failed: first.report.failed + first.report.undeliverable,
      send_s: round(first.report.sendMs / 1000),
      rate_limit_per_s: config.maxPerSecond,
      user_gap_s: config.userGapMs / 1000,
      // The same tick again on the same data: how much the machine moves the numbers.
      claim_ms_rerun: round(second.report.claimMs),
      p99_lag_s_rerun: seconds(second.lags, 99),
      sent_rerun: second.report.sent,
      // Due over the whole minute before the pass (no wake timer): the oldest waited a minute already.
      p99_lag_spread_s: seconds(spread.lags, 99),
      claim_ms_spread: round(spread.report.claimMs),
      select1_ms: round(floorMs),
      seed_s: round(seedS),
      graph_sends: graph.sent.length,
    };
  } finally {
    await graph.close();
  }
}

/**
 * One scheduler tick at scale: 100,000 tasks of 10,000 users, 1,000 of them due (one per user,
 * due over the minute before the tick); one ReminderService.runDue() with the real clock and the
 * real pacing (80 messages a second) sends them through the real Graph API client to a fake Graph
 * API over HTTP. claim_ms is the pass's own claim time; lag is the ledger's sent_at minus each
 * occurrence (so it includes up to the minute the occurrence waited for the tick, by
 * construction); p99_since_tick_s is what the pass itself added. On PGlite, and on Postgres when
 * one answers; each backend runs the tick twice (the rerun is the noise).
 */
export async function schedulerTick(): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  out.push(await withPglite((pool) => measure("pglite", pool)));
  const database = await postgresDatabase();
  if (!database) {
    out.push({
      bench: "scheduler_tick",
      backend: "postgres",
      skipped: NO_POSTGRES,
    });
    return out;
  }
  try {
    // The service's default pool size (DATABASE_POOL_MAX).
    const pool = new pg.Pool({ connectionString: database.url, max: 10 });
    pool.on("error", () => undefined);
    try {
      out.push(await measure("postgres", pool));
    } finally {
      await pool.end();
    }
  } finally {
    await database.drop();
  }
  return out;
}
