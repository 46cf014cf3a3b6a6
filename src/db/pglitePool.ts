import type { PGlite } from "@electric-sql/pglite";
import { createPgConfig, PglitePgConnection } from "@electric-sql/pglite/node-postgres";
import pg from "pg";

/**
 * A pg.Pool over one PGlite instance, through PGlite's own node-postgres adapter (D2), made safe
 * for errors.
 *
 * The adapter gives every client the same connection object. pg-pool destroys a client whenever a
 * query fails through `pool.query()`, and when it sits idle; the destroyed client's queued protocol
 * messages and its late "end" event then reach the next client on that shared connection, which
 * fails with "Connection terminated unexpectedly" or reads another query's rows (seen here with a
 * single CHECK violation). So this pool:
 * - releases clients after `pool.query()` without destroying them, as any healthy connection is;
 * - never closes idle clients;
 * - and should a client still be destroyed (`release(err)`, a client error), gives its successor a
 *   fresh connection that first waits for the old one's messages to drain and then rolls back any
 *   transaction the old one left open and drops its prepared statements, so the single PGlite
 *   session starts clean.
 */
export function createPglitePool(pglite: PGlite): pg.Pool {
  let previousDrained: Promise<void> = Promise.resolve();
  let sessionUsed = false;

  class SerialConnection extends PglitePgConnection {
    override async connect(port: number, host: string): Promise<void> {
      await previousDrained;
      if (sessionUsed) {
        // A predecessor was destroyed, perhaps mid-transaction: start from a clean session. Its
        // prepared statements go too, or this client (which has prepared none) would fail to
        // prepare the same names again.
        await pglite.exec("ROLLBACK").catch(() => undefined);
        await pglite.exec("DEALLOCATE ALL").catch(() => undefined);
      }
      sessionUsed = true;
      return super.connect(port, host);
    }

    override end(): void {
      let drained!: () => void;
      previousDrained = new Promise((resolve) => (drained = resolve));
      super.end();
      // end() removes every listener synchronously and emits "end" once its queue has drained.
      this.once("end", drained);
    }
  }

  const base = createPgConfig(pglite);
  class PgliteClient extends pg.Client {
    constructor(config: pg.ClientConfig = {}) {
      // pg.Client takes a ready connection object; its typings do not list the option.
      const withConnection: pg.ClientConfig & { connection: PglitePgConnection } = {
        ...config,
        connection: new SerialConnection({ pglite }),
      };
      super(withConnection);
    }
  }

  const pool = new pg.Pool({
    user: base.user,
    password: base.password,
    database: base.database,
    host: base.host,
    port: base.port,
    max: 1,
    idleTimeoutMillis: 0,
    Client: PgliteClient,
  });

  // pg-pool's query() passes the error to release(), destroying the client: release it plainly.
  const query = async (...args: unknown[]): Promise<unknown> => {
    const client = await pool.connect();
    try {
      return await (client.query as (...a: unknown[]) => Promise<unknown>)(...args);
    } finally {
      client.release();
    }
  };
  Object.defineProperty(pool, "query", { value: query });
  return pool;
}
