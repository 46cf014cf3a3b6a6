/** A string argument with content, trimmed; undefined for anything else (null, "", "  ", numbers). */
export const nonEmpty = (value: unknown): string | undefined =>
  typeof value === "string" && value.trim() ? value.trim() : undefined;
