import pg from "pg";

/** What the database was sent. */
export interface QueryCounts {
  /** Statements other than BEGIN, COMMIT and ROLLBACK. */
  queries: number;
  /** BEGIN…COMMIT blocks, plus each statement sent outside one (its own implicit transaction). */
  transactions: number;
  /** Messages the client waited on before sending the next one: every query call. */
  roundTrips: number;
}

/** A running count of every query any pg.Client sends (over Postgres or PGlite alike). */
export interface QueryCounter {
  readonly counts: QueryCounts;
  /** Every statement's text, in order (whitespace collapsed). */
  readonly statements: string[];
  /** The counts since `before` (a copy of `counts` taken earlier). */
  since(before: QueryCounts): QueryCounts;
  /** Stops counting. */
  restore(): void;
}

/**
 * Counts the queries of every pg.Client of this process (the pool's clients, PGlite's adapter
 * included) until `restore()`: statements, transactions and round trips. Counters do not nest.
 */
export function countQueries(options: { log?: (sql: string) => void } = {}): QueryCounter {
  const counts: QueryCounts = { queries: 0, transactions: 0, roundTrips: 0 };
  const statements: string[] = [];
  const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = proto.query;
  const inTransaction = new WeakSet<object>();
  proto.query = function (this: object, ...args: unknown[]) {
    const first = args[0];
    const text = typeof first === "string" ? first : ((first as { text?: string } | undefined)?.text ?? "");
    const sql = text.replace(/\s+/g, " ").trim();
    const head = sql.slice(0, 8).toUpperCase();
    counts.roundTrips += 1;
    if (head.startsWith("BEGIN")) {
      counts.transactions += 1;
      inTransaction.add(this);
    } else if (head.startsWith("COMMIT") || head.startsWith("ROLLBACK")) {
      inTransaction.delete(this);
    } else {
      counts.queries += 1;
      if (!inTransaction.has(this)) counts.transactions += 1;
      statements.push(sql);
    }
    options.log?.(sql);
    return original.apply(this, args);
  };
  return {
    counts,
    statements,
    since: (before) => ({
      queries: counts.queries - before.queries,
      transactions: counts.transactions - before.transactions,
      roundTrips: counts.roundTrips - before.roundTrips,
    }),
    restore: () => {
      proto.query = original;
    },
  };
}
