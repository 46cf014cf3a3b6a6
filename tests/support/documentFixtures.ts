import { readFileSync } from "node:fs";

/**
 * A document fixture's logical text: its source HTML (tests/fixtures/documents/sources/) with the
 * tags taken out, one paragraph a line, as a reader that got the order right would give it.
 */
export function htmlText(name: string): string {
  return readFileSync(new URL(`../fixtures/documents/sources/${name}`, import.meta.url), "utf8")
    .replace(/<(style|title)[\s\S]*?<\/\1>/gu, "")
    .replace(/<br>|<\/(?:p|h1|h2|tr|div)>/gu, "\n")
    .replace(/<\/td>/gu, " ")
    .replace(/<[^>]+>/gu, "")
    .replace(/\n\s+/gu, "\n")
    .trim();
}
