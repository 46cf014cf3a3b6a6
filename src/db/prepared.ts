import type pg from "pg";

/** Statement names by their SQL text: one name per distinct text, for the process's life. */
const names = new Map<string, string>();

/**
 * A query as a prepared statement (a named query in node-postgres): each connection parses and
 * plans it once, then only binds values. For the statements every turn runs; their text must be
 * one of a few fixed variants (each distinct text gets a name of its own, kept for good). Never
 * for a statement whose result names a table's columns by `*` (SELECT *, RETURNING *): once a
 * migration adds a column, Postgres refuses the statement prepared before it on every connection
 * an instance still holds ("cached plan must not change result type").
 */
export function prepared(text: string, values: unknown[]): pg.QueryConfig {
  let name = names.get(text);
  if (name === undefined) {
    name = `memo_${names.size + 1}`;
    names.set(text, name);
  }
  return { name, text, values };
}
