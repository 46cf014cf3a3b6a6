import { zodResponseFormat } from "openai/helpers/zod";
import type { z } from "zod";

/** A JSON Schema as sent to the model. */
export type JsonSchema = Record<string, unknown>;

/**
 * Length limits OpenAI's strict mode has no keyword for: the zod schema still checks them on the
 * answer (an answer that breaks one is `invalid_output`, and the fallback model tries), the model
 * is just not held to them while it writes.
 */
const UNSENDABLE = new Set(["minLength", "maxLength"]);

function withoutUnsendable(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutUnsendable);
  if (!node || typeof node !== "object") return node;
  return Object.fromEntries(
    Object.entries(node)
      .filter(([key]) => !UNSENDABLE.has(key))
      // Property names are data, not keywords: a field called "maxLength" stays.
      .map(([key, value]) => [
        key,
        key === "properties" || key === "$defs" || key === "definitions"
          ? Object.fromEntries(Object.entries(value as object).map(([k, v]) => [k, withoutUnsendable(v)]))
          : withoutUnsendable(value),
      ]),
  );
}

const converted = new WeakMap<object, JsonSchema>();

/**
 * The JSON Schema Memo sends for a structured-output zod schema, with every method: OpenAI's own
 * strict conversion (`zodResponseFormat` of the openai SDK): every object closed
 * (`additionalProperties: false`) and every field required, a `.nullish()` field sent as required
 * and nullable. It throws for what strict mode cannot express (an open record, an `.optional()`
 * field that cannot be null), so such a schema fails at its first use and in
 * tests/llm/structuredSchemas.test.ts, never at OpenAI. Converted once per schema (the name
 * does not enter the schema itself).
 */
export function strictJsonSchemaOf(schema: z.ZodType, name: string): JsonSchema {
  let json = converted.get(schema);
  if (!json) {
    const sent = { ...(zodResponseFormat(schema, name).json_schema.schema as JsonSchema) };
    // The draft's URL tells the model nothing and costs tokens on every call.
    delete sent.$schema;
    json = withoutUnsendable(sent) as JsonSchema;
    converted.set(schema, json);
  }
  return json;
}
