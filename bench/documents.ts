import { readFileSync } from "node:fs";
import { migrate } from "../src/db/migrate.js";
import { MIGRATIONS } from "../src/db/migrations/index.js";
import { documentStorage } from "../src/db/storage.js";
import { DocumentService } from "../src/services/documents/documentService.js";
import { extractText } from "../src/services/documents/extractText.js";
import { round } from "./measure.js";
import { withPglite } from "./pglite.js";

const PHONE = "972501234567";
const FIXTURE = new URL("../tests/fixtures/documents/newsletter20Pages.pdf", import.meta.url);
/** Timed runs after one untimed warm-up (each stores the document once more). */
const RUNS = 3;

/**
 * `documents`: a 20-page Hebrew and English PDF read (unpdf, reading order rebuilt) and stored as
 * a head note and its chunks (one transaction), on the embedded database. Reports each step's
 * median milliseconds and how many chunks the document made.
 */
export async function documents(): Promise<Record<string, unknown>> {
  const data = new Uint8Array(readFileSync(FIXTURE));
  return withPglite(async (pool) => {
    await migrate(pool, MIGRATIONS);
    await pool.query("INSERT INTO users (phone) VALUES ($1)", [PHONE]);
    const service = new DocumentService(documentStorage(pool));
    const extractMs: number[] = [];
    const storeMs: number[] = [];
    let pages = 0;
    for (let run = 0; run <= RUNS; run++) {
      const started = performance.now();
      const extracted = await extractText(data, "pdf", {
        fileName: "newsletter.pdf",
        mimeType: "application/pdf",
      });
      const extractedAt = performance.now();
      await service.store(PHONE, extracted, { file: data });
      const storedAt = performance.now();
      pages = extracted.pages.length;
      if (run === 0) continue;
      extractMs.push(extractedAt - started);
      storeMs.push(storedAt - extractedAt);
    }
    const { rows } = await pool.query<{ chunks: number }>(
      `SELECT count(*)::int AS chunks FROM notes
        WHERE user_phone = $1 AND chunk_index IS NOT NULL
          AND document_id = (SELECT id FROM documents WHERE user_phone = $1 ORDER BY created_at DESC, id LIMIT 1)`,
      [PHONE],
    );
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    return {
      bench: "documents",
      database: "pglite",
      pages,
      bytes: data.byteLength,
      chunks: rows[0]?.chunks ?? 0,
      extract_ms: round(median(extractMs)),
      store_ms: round(median(storeMs)),
      total_ms: round(median(extractMs) + median(storeMs)),
    };
  });
}
