/** One ordered, versioned schema change, applied once in its own transaction. */
export interface Migration {
  /** Strictly increasing; never reused or renumbered once released. */
  version: number;
  /** Short snake_case name, shown in logs and errors. */
  name: string;
  sql: string;
}
