/** A copy without null, undefined or empty-string fields, at any depth: what the executor is handed. */
export function compactArgs<T>(value: T): T {
  if (Array.isArray(value)) return value.map((v: unknown) => compactArgs(v)) as T;
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) {
      if (v === null || v === undefined || (typeof v === "string" && v.trim() === "")) continue;
      out[key] = compactArgs(v);
    }
    return out as T;
  }
  return value;
}
