import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { loadConfig } from "../../src/config/env.js";
import { CALENDAR_FIND_SYSTEM_PROMPT, CalendarFindSchema } from "../../src/prompts/calendarFindPrompt.js";
import {
  CALENDAR_MUTATE_SYSTEM_PROMPT,
  CalendarMutateSchema,
} from "../../src/prompts/calendarMutatePrompt.js";
import { CHUNK_SUMMARY_PROMPT } from "../../src/prompts/conversationSummaryPrompt.js";
import {
  DOCUMENT_IMAGE_SYSTEM_PROMPT,
  DocumentImageAnswerSchema,
} from "../../src/prompts/documentImagePrompt.js";
import {
  DOCUMENT_OFFERS_SYSTEM_PROMPT,
  DocumentOffersSchema,
} from "../../src/prompts/documentOffersPrompt.js";
import { DRAFT_REVISION_PROMPT, RevisedDraftSchema } from "../../src/prompts/draftRevisionPrompt.js";
import { FACTS_PROMPT } from "../../src/prompts/factExtractionPrompt.js";
import { GMAIL_SYSTEM_PROMPT, GmailOperationSchema } from "../../src/prompts/gmailPrompt.js";
import {
  IMAGE_ANALYSIS_SYSTEM_PROMPT,
  ImageAnalysisAnswerSchema,
} from "../../src/prompts/imageAnalysisPrompt.js";
import { DATABASE_LIST_SYSTEM_PROMPT, ListOperationSchema } from "../../src/prompts/listPrompt.js";
import {
  planFieldsOf,
  planFieldsRecord,
  PLANNER_SYSTEM_PROMPT,
  PlannerSchema,
} from "../../src/prompts/plannerPrompt.js";
import { NoteOperationSchema, SECOND_BRAIN_SYSTEM_PROMPT } from "../../src/prompts/secondBrainPrompt.js";
import { DATABASE_TASK_SYSTEM_PROMPT, TaskOperationSchema } from "../../src/prompts/taskPrompt.js";
import { factExtractionSchema } from "../../src/services/memory/factExtraction.js";
import { chunkAnswerSchema } from "../../src/services/memory/summary.js";
import { createLLMService } from "../../src/services/llm/openAiLlmService.js";
import { createLogger } from "../../src/utils/logger.js";
import { strictJsonSchemaOf } from "../../src/services/llm/strictSchema.js";
import { ScriptedOpenAI, textOf, type RecordedRequest } from "../support/scriptedOpenAI.js";

const JSON_MODE_PREFIX = "Answer with one JSON object that matches this JSON Schema:\n";

/**
 * Every schema Memo asks a model to answer in, by the name its call sites use, with the system
 * prompt it is sent with. The last test reads src/ so that a new `.structured(` call with a schema
 * missing here fails.
 */
const SCHEMAS: Record<string, { schema: z.ZodType; system: string }> = {
  PlannerSchema: { schema: PlannerSchema, system: PLANNER_SYSTEM_PROMPT },
  TaskOperationSchema: { schema: TaskOperationSchema, system: DATABASE_TASK_SYSTEM_PROMPT },
  ListOperationSchema: { schema: ListOperationSchema, system: DATABASE_LIST_SYSTEM_PROMPT },
  CalendarFindSchema: { schema: CalendarFindSchema, system: CALENDAR_FIND_SYSTEM_PROMPT },
  CalendarMutateSchema: { schema: CalendarMutateSchema, system: CALENDAR_MUTATE_SYSTEM_PROMPT },
  NoteOperationSchema: { schema: NoteOperationSchema, system: SECOND_BRAIN_SYSTEM_PROMPT },
  GmailOperationSchema: { schema: GmailOperationSchema, system: GMAIL_SYSTEM_PROMPT },
  RevisedDraftSchema: { schema: RevisedDraftSchema, system: DRAFT_REVISION_PROMPT },
  DocumentOffersSchema: { schema: DocumentOffersSchema, system: DOCUMENT_OFFERS_SYSTEM_PROMPT },
  DocumentImageAnswerSchema: { schema: DocumentImageAnswerSchema, system: DOCUMENT_IMAGE_SYSTEM_PROMPT },
  ImageAnalysisAnswerSchema: { schema: ImageAnalysisAnswerSchema, system: IMAGE_ANALYSIS_SYSTEM_PROMPT },
  factExtractionSchema: { schema: factExtractionSchema, system: FACTS_PROMPT },
  chunkAnswerSchema: { schema: chunkAnswerSchema, system: CHUNK_SUMMARY_PROMPT },
};

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  !!value && typeof value === "object" && !Array.isArray(value);

// OpenAI's "Supported schemas" for Structured Outputs (strict json_schema and strict function
// calling alike): these keywords, nothing else.
// `default` is documented but Azure OpenAI refuses a non-null one: Memo sends none.
const ANNOTATIONS = ["title", "description", "$comment"];
const STRUCTURE = [
  "type",
  "properties",
  "required",
  "additionalProperties",
  "items",
  "enum",
  "const",
  "anyOf",
];
const REFERENCES = ["$ref", "$defs", "definitions"];
const BY_TYPE: Record<string, string[]> = {
  string: ["pattern", "format"],
  number: ["multipleOf", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum"],
  integer: ["multipleOf", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum"],
  array: ["minItems", "maxItems"],
};
const TYPES = new Set(["string", "number", "integer", "boolean", "object", "array", "null"]);
const FORMATS = new Set([
  "date-time",
  "time",
  "date",
  "duration",
  "email",
  "hostname",
  "ipv4",
  "ipv6",
  "uuid",
]);
const LIMITS = {
  nesting: 10,
  properties: 5000,
  enumValues: 1000,
  /** Characters of all property names, definition names, enum and const values together. */
  strings: 120_000,
  /** Characters of one string enum's values, when it has more than 250. */
  bigEnumChars: 15_000,
};

/** Why OpenAI would refuse this schema with `strict: true`; empty when it would take it. */
function strictProblems(root: Json): string[] {
  const problems: string[] = [];
  const counts = { properties: 0, enumValues: 0, strings: 0 };
  if (root.type !== "object") problems.push("<root>: not an object");
  if ("anyOf" in root) problems.push("<root>: anyOf");
  const definitions = {
    ...(isObject(root.$defs) ? root.$defs : {}),
    ...(isObject(root.definitions) ? root.definitions : {}),
  };
  counts.strings += Object.keys(definitions).join("").length;

  const visit = (node: unknown, path: string, depth: number, seen: Set<string>): void => {
    if (!isObject(node)) return void problems.push(`${path}: not a schema object`);
    const types = ([] as unknown[]).concat(node.type ?? []);
    const allowed = new Set([
      ...ANNOTATIONS,
      ...STRUCTURE,
      ...REFERENCES,
      ...(path === "<root>" ? ["$schema", "$id"] : []),
      ...types.flatMap((t) => BY_TYPE[String(t)] ?? []),
    ]);
    for (const key of Object.keys(node)) if (!allowed.has(key)) problems.push(`${path}: keyword ${key}`);
    for (const t of types) if (!TYPES.has(String(t))) problems.push(`${path}: type ${String(t)}`);
    if (typeof node.format === "string" && !FORMATS.has(node.format))
      problems.push(`${path}: format ${node.format}`);
    if (typeof node.$ref === "string") {
      const name = /^#\/(?:\$defs|definitions)\/(.+)$/.exec(node.$ref)?.[1];
      if (node.$ref === "#") return;
      if (!name || !(name in definitions)) return void problems.push(`${path}: $ref ${node.$ref} not local`);
      // A recursive definition is followed once.
      if (!seen.has(name)) visit(definitions[name], `${path}→${name}`, depth, new Set([...seen, name]));
      return;
    }
    if (Array.isArray(node.enum)) {
      counts.enumValues += node.enum.length;
      const chars = node.enum.map(String).join("").length;
      counts.strings += chars;
      if (node.enum.length > 250 && chars > LIMITS.bigEnumChars)
        problems.push(`${path}: enum of ${chars} characters`);
    }
    if (typeof node.const === "string") counts.strings += node.const.length;
    // OpenAI documents a type list only as [T, "null"].
    if (types.filter((t) => t !== "null").length > 1) problems.push(`${path}: type ${types.join("|")}`);
    // Objects and arrays both count towards OpenAI's nesting limit.
    if ((types.includes("object") || types.includes("array")) && depth > LIMITS.nesting)
      problems.push(`${path}: nested ${depth} levels deep`);
    if (types.includes("object") || "properties" in node) {
      if (node.additionalProperties !== false) problems.push(`${path}: additionalProperties is not false`);
      const properties = isObject(node.properties) ? node.properties : {};
      const required = Array.isArray(node.required) ? node.required : [];
      const keys = Object.keys(properties);
      counts.properties += keys.length;
      counts.strings += keys.join("").length;
      for (const key of keys) if (!required.includes(key)) problems.push(`${path}.${key}: not required`);
      for (const key of required)
        if (!keys.includes(String(key))) problems.push(`${path}: requires undeclared ${String(key)}`);
      for (const [key, value] of Object.entries(properties)) visit(value, `${path}.${key}`, depth + 1, seen);
    }
    if (types.includes("array") && !isObject(node.items))
      problems.push(`${path}: array without one items schema`);
    if (isObject(node.items)) visit(node.items, `${path}[]`, depth + 1, seen);
    if (Array.isArray(node.anyOf))
      node.anyOf.forEach((branch, i) => visit(branch, `${path}|${i}`, depth, seen));
  };
  visit(root, "<root>", 1, new Set());
  if (counts.properties > LIMITS.properties) problems.push(`${counts.properties} properties`);
  if (counts.enumValues > LIMITS.enumValues) problems.push(`${counts.enumValues} enum values`);
  if (counts.strings > LIMITS.strings) problems.push(`${counts.strings} characters of names and values`);
  return problems;
}

/** Why a non-strict server would refuse it: the root must be an object schema with sound keywords. */
function looseProblems(root: Json): string[] {
  const problems: string[] = [];
  if (root.type !== "object") problems.push("<root>: not an object");
  const visit = (node: unknown, path: string): void => {
    if (typeof node === "boolean") return;
    if (!isObject(node)) return void problems.push(`${path}: not a schema`);
    for (const t of ([] as unknown[]).concat(node.type ?? []))
      if (!TYPES.has(String(t))) problems.push(`${path}: type ${String(t)}`);
    if (
      "required" in node &&
      !(Array.isArray(node.required) && node.required.every((r) => typeof r === "string"))
    )
      problems.push(`${path}: required is not a list of names`);
    if ("properties" in node) {
      if (!isObject(node.properties)) problems.push(`${path}: properties is not an object`);
      else for (const [key, value] of Object.entries(node.properties)) visit(value, `${path}.${key}`);
    }
    if ("items" in node) visit(node.items, `${path}[]`);
    for (const key of ["anyOf", "oneOf", "allOf"]) {
      if (key in node && !Array.isArray(node[key])) problems.push(`${path}: ${key} is not a list`);
      else if (Array.isArray(node[key]))
        node[key].forEach((b: unknown, i: number) => visit(b, `${path}|${i}`));
    }
  };
  visit(root, "<root>");
  return problems;
}

const METHODS = ["jsonSchema", "functionCalling", "jsonMode"] as const;

/** What one request declared: its schema (none in JSON mode), whether strict, and its name. */
function declared(req: RecordedRequest): {
  schema?: Json;
  strict?: unknown;
  name?: unknown;
  jsonObject: boolean;
} {
  const format = req.body.response_format;
  if (isObject(format) && format.type === "json_schema" && isObject(format.json_schema)) {
    const { schema, strict, name } = format.json_schema;
    return { schema: schema as Json, strict, name, jsonObject: false };
  }
  const tool = req.body.tools?.[0];
  if (isObject(tool) && isObject(tool.function)) {
    const { parameters, strict, name } = tool.function;
    return { schema: parameters as Json, strict, name, jsonObject: false };
  }
  return { jsonObject: isObject(format) && format.type === "json_object" };
}

const silent = createLogger("silent");
let server: ScriptedOpenAI;
beforeAll(async () => {
  server = await ScriptedOpenAI.start();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => server.reset());

/** The request Memo sends for `schema` with `method`: answered 400, which is neither retried nor handed to the fallback. */
async function requestFor(
  method: (typeof METHODS)[number],
  schema: z.ZodType,
  system: string,
  name: string,
  env: Record<string, string> = {},
) {
  const llm = createLLMService(
    loadConfig({
      OPENAI_BASE_URL: server.baseUrl,
      LLM_MAX_RETRIES: "0",
      LLM_STRUCTURED_OUTPUT_METHOD: method,
      ...env,
    }),
    silent,
  )!;
  server.enqueue({ status: 400 });
  await expect(
    llm.structured(
      "planner",
      schema,
      [
        { role: "system", content: system },
        { role: "user", content: "hello" },
      ],
      { name },
    ),
  ).rejects.toThrow();
  expect(server.requests).toHaveLength(1);
  return server.requests[0]!;
}

describe("structured-output schemas as the real API takes them", () => {
  it.each(Object.entries(SCHEMAS))(
    "%s is sent strict and as OpenAI's strict mode accepts it, with every method",
    async (name, { schema, system }) => {
      const schemas = new Map<string, Json>();
      for (const method of METHODS) {
        server.reset();
        const request = await requestFor(method, schema, system, name);
        const sent = declared(request);
        if (method === "jsonMode") {
          // JSON mode declares no schema; OpenAI refuses it unless the messages say "JSON".
          expect(sent.jsonObject).toBe(true);
          expect(system).toMatch(/\bJSON\b/);
          // The model reads the same schema at the end of the one system prompt instead.
          const prompts = request.body.messages
            .filter((m) => m.role === "system")
            .map((m) => textOf(m.content));
          expect(prompts).toEqual([
            `${system}\n\n${JSON_MODE_PREFIX}${JSON.stringify(schemas.get("jsonSchema"))}`,
          ]);
          for (const key of Object.keys(schemas.get("jsonSchema")!.properties as Json))
            expect(prompts[0]).toContain(`"${key}"`);
          continue;
        }
        expect(sent.name).toBe(name);
        expect(sent.strict, `${method} is sent strict`).toBe(true);
        expect(strictProblems(sent.schema!), method).toEqual([]);
        expect(looseProblems(sent.schema!), method).toEqual([]);
        schemas.set(method, sent.schema!);
      }
      // One schema, whichever method carries it.
      expect(schemas.get("functionCalling")).toEqual(schemas.get("jsonSchema"));
    },
  );

  it.each([
    [
      "an open record",
      {
        type: "object",
        properties: { a: { type: "object", additionalProperties: {} } },
        required: ["a"],
        additionalProperties: false,
      },
    ],
    [
      "a field left out of required",
      { type: "object", properties: { a: { type: "string" } }, required: [], additionalProperties: false },
    ],
    ["an object left open", { type: "object", properties: { a: { type: "string" } }, required: ["a"] }],
    [
      "propertyNames",
      {
        type: "object",
        properties: {},
        required: [],
        additionalProperties: false,
        propertyNames: { type: "string" },
      },
    ],
    [
      "minLength",
      {
        type: "object",
        properties: { a: { type: "string", minLength: 1 } },
        required: ["a"],
        additionalProperties: false,
      },
    ],
    [
      "patternProperties",
      { type: "object", properties: {}, required: [], additionalProperties: false, patternProperties: {} },
    ],
    [
      "allOf / if / not",
      {
        type: "object",
        properties: {},
        required: [],
        additionalProperties: false,
        allOf: [],
        if: {},
        not: {},
      },
    ],
    [
      "a root anyOf",
      { anyOf: [{ type: "object", properties: {}, required: [], additionalProperties: false }] },
    ],
    ["a root that is no object", { type: "array", items: { type: "string" } }],
    [
      "an unknown format",
      {
        type: "object",
        properties: { a: { type: "string", format: "phone" } },
        required: ["a"],
        additionalProperties: false,
      },
    ],
    [
      "1001 enum values",
      {
        type: "object",
        properties: { a: { type: "string", enum: Array.from({ length: 1001 }, (_, i) => `v${i}`) } },
        required: ["a"],
        additionalProperties: false,
      },
    ],
    [
      "11 levels of objects",
      Array.from({ length: 10 }).reduce<Json>(
        (inner) => ({
          type: "object",
          properties: { a: inner },
          required: ["a"],
          additionalProperties: false,
        }),
        { type: "object", properties: {}, required: [], additionalProperties: false },
      ),
    ],
    [
      "11 levels of objects and arrays",
      Array.from({ length: 5 }).reduce<Json>(
        (inner) => ({
          type: "object",
          properties: { a: { type: "array", items: inner } },
          required: ["a"],
          additionalProperties: false,
        }),
        { type: "object", properties: {}, required: [], additionalProperties: false },
      ),
    ],
    [
      "a default",
      {
        type: "object",
        properties: { a: { type: "array", items: { type: "string" }, default: [] } },
        required: ["a"],
        additionalProperties: false,
      },
    ],
    [
      "a type list of more than one type and null",
      {
        type: "object",
        properties: { a: { type: ["string", "number", "null"] } },
        required: ["a"],
        additionalProperties: false,
      },
    ],
    [
      "5001 properties",
      {
        type: "object",
        properties: Object.fromEntries(Array.from({ length: 5001 }, (_, i) => [`p${i}`, { type: "string" }])),
        required: Array.from({ length: 5001 }, (_, i) => `p${i}`),
        additionalProperties: false,
      },
    ],
  ] as [string, Json][])("the strict rules refuse %s", (_, schema) => {
    expect(strictProblems(schema)).not.toEqual([]);
  });

  it("the planner's key/value pairs come back as the records every step reader takes", () => {
    const record = {
      text: "call mom",
      when: "tomorrow at 9",
      count: 2,
      urgent: true,
      list: null,
      items: ["milk", "eggs"],
      recurrence: { days: [1, 3], time: "18:00" },
      events: [{ summary: "dentist", when: "Monday at 9" }, "standup"],
    };
    const answer = PlannerSchema.parse({
      intentType: "operation",
      confidence: 1,
      riskLevel: "low",
      needsApproval: false,
      missingFields: [],
      clarificationQuestion: null,
      plan: [
        {
          id: "s1",
          capability: "database",
          action: "create_task",
          constraints: [],
          changes: planFieldsOf(record),
          dependsOn: [],
        },
      ],
    });
    expect(planFieldsRecord(answer.plan[0]!.changes)).toEqual(record);
    expect(planFieldsRecord(answer.plan[0]!.constraints)).toEqual({});
  });

  it("with LLM_STRUCTURED_OUTPUT_STRICT=off both schema methods send the same schema, not strict", async () => {
    const sent = new Map<string, ReturnType<typeof declared>>();
    for (const method of ["jsonSchema", "functionCalling"] as const) {
      server.reset();
      sent.set(
        method,
        declared(
          await requestFor(method, PlannerSchema, PLANNER_SYSTEM_PROMPT, "PlannerSchema", {
            LLM_STRUCTURED_OUTPUT_STRICT: "off",
          }),
        ),
      );
      expect(sent.get(method)!.strict, method).toBe(false);
    }
    expect(sent.get("functionCalling")!.schema).toEqual(sent.get("jsonSchema")!.schema);
    expect(sent.get("jsonSchema")!.schema).toEqual(strictJsonSchemaOf(PlannerSchema, "PlannerSchema"));
  });

  it("in JSON mode a planner answer the model writes from the prompt's schema is read", async () => {
    const llm = createLLMService(
      loadConfig({ OPENAI_BASE_URL: server.baseUrl, LLM_STRUCTURED_OUTPUT_METHOD: "jsonMode" }),
      silent,
    )!;
    const answer = {
      intentType: "operation",
      confidence: 0.9,
      riskLevel: "low",
      needsApproval: false,
      missingFields: [],
      clarificationQuestion: null,
      plan: [
        {
          id: "s1",
          capability: "database",
          action: "create_task",
          constraints: [],
          changes: [{ key: "text", value: "call mom" }],
          dependsOn: [],
        },
      ],
    };
    server.enqueue({ json: answer });
    const result = await llm.structured(
      "planner",
      PlannerSchema,
      [
        { role: "system", content: PLANNER_SYSTEM_PROMPT },
        { role: "user", content: "remind me to call mom" },
      ],
      { name: "PlannerSchema" },
    );
    expect(result.value).toEqual(answer);
    expect(server.requests).toHaveLength(1);
  });

  it("a key the planner repeats keeps every value, and an empty key is dropped", () => {
    expect(
      planFieldsRecord([
        { key: "items", value: "milk" },
        { key: "items", value: ["eggs", "bread"] },
        { key: " ", value: "lost" },
        {
          key: "events",
          value: {
            fields: [
              { key: "when", value: "9" },
              { key: "when", value: "10" },
            ],
          },
        },
      ]),
    ).toEqual({ items: ["milk", "eggs", "bread"], events: { when: ["9", "10"] } });
    expect(PLANNER_SYSTEM_PROMPT).toContain("each key once");
  });

  it("a scripted thing inside a thing fails in the fake, not at the schema", () => {
    expect(() => planFieldsOf({ recurrence: { until: { date: "june" } } })).toThrow(/inside a thing/);
    expect(() => planFieldsOf({ events: [{ guests: [{ name: "dana" }] }] })).toThrow(/inside a thing/);
  });

  it("a schema strict mode cannot express fails before any request is sent", async () => {
    const llm = createLLMService(
      loadConfig({ OPENAI_BASE_URL: server.baseUrl, LLM_MAX_RETRIES: "0" }),
      silent,
    )!;
    for (const schema of [
      z.object({ fields: z.record(z.string(), z.unknown()) }) as z.ZodType,
      z.object({ maybe: z.string().optional() }),
    ]) {
      await expect(
        llm.structured("planner", schema, [{ role: "user", content: "JSON please" }]),
      ).rejects.toThrow();
    }
    expect(server.requests).toEqual([]);
  });

  it("lists every schema a .structured( call in src/ sends, and every name is one OpenAI takes", () => {
    const files = (dir: string): string[] =>
      readdirSync(dir).flatMap((entry) => {
        const path = join(dir, entry);
        return statSync(path).isDirectory() ? files(path) : path.endsWith(".ts") ? [path] : [];
      });
    const used = new Set<string>();
    const names = new Set<string>();
    for (const file of files("src")) {
      const text = readFileSync(file, "utf8");
      // `.structured(node, Schema, …)`: the second argument; a resolver spec's `schema: Schema`.
      for (const call of text.matchAll(/\.structured\(\s*[^,]+,\s*([\w.]+)/g)) {
        if (call[1] !== "schema" && call[1] !== "spec.schema") used.add(call[1]!);
      }
      if (text.includes("resolveOperation("))
        for (const m of text.matchAll(/\bschema: (\w+Schema)\b/g)) used.add(m[1]!);
      for (const m of text.matchAll(/\b(?:name|outputName): "([^"]*)"/g))
        if (text.includes(".structured(") || text.includes("resolveOperation(")) names.add(m[1]!);
    }
    expect(used.size).toBeGreaterThan(10);
    expect([...used].filter((name) => !(name in SCHEMAS))).toEqual([]);
    for (const name of names) expect(name).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
  });
});
