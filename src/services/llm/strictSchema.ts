import { zodResponseFormat } from "openai/helpers/zod";
import type { z } from "zod";

/** A JSON Schema as sent to the model. */
export type JsonSchema = Record<string, unknown>;

/**
 * Keywords not sent. Length limits OpenAI's strict mode has no keyword for: the zod schema still
 * checks them on the answer (an answer that breaks one is `invalid_output`, and the fallback model
 * tries), the model is just not held to them while it writes. `default`: Azure OpenAI refuses a
 * non-null one, and strict mode requires every field anyway (zod still fills it in when parsing).
 */
const UNSENDABLE = new Set(["minLength", "maxLength", "default"]);

type Node = Record<string, unknown>;

/**
 * OpenAI's converter writes a union of plain types as one `type` list (["string", "number",
 * "boolean", "null"]); OpenAI documents only [T, "null"], so a longer list is sent as an anyOf of
 * single types, which it documents.
 */
function singleTyped(node: Node): Node {
  const { type, ...rest } = node;
  if (!Array.isArray(type) || type.filter((t) => t !== "null").length < 2) return node;
  return { ...rest, anyOf: type.map((t: unknown) => ({ type: t })) };
}

/** A branch that is itself only an anyOf is spliced into its parent's anyOf. */
function flatAnyOf(node: Node): Node {
  if (!Array.isArray(node.anyOf)) return node;
  const branches = (node.anyOf as Node[]).flatMap((branch) =>
    Object.keys(branch).length === 1 && Array.isArray(branch.anyOf) ? (branch.anyOf as Node[]) : [branch],
  );
  return { ...node, anyOf: branches };
}

function sendable(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(sendable);
  if (!node || typeof node !== "object") return node;
  const kept = Object.fromEntries(
    Object.entries(node)
      .filter(([key]) => !UNSENDABLE.has(key))
      // Property names are data, not keywords: a field called "maxLength" stays.
      .map(([key, value]) => [
        key,
        key === "properties" || key === "$defs" || key === "definitions"
          ? Object.fromEntries(Object.entries(value as object).map(([k, v]) => [k, sendable(v)]))
          : sendable(value),
      ]),
  );
  return flatAnyOf(singleTyped(kept));
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
    json = sendable(sent) as JsonSchema;
    converted.set(schema, json);
  }
  return json;
}
