import { ChatOpenAICompletions } from "@langchain/openai";
import { z } from "zod";
import { loadConfig } from "../../src/config/env.js";
import { createLLMService } from "../../src/services/llm/index.js";
import { LLMError } from "../../src/services/llm/llmError.js";
import { type LLMMessage, type LLMService } from "../../src/types/llm.js";
import { createLogger } from "../../src/utils/logger.js";
import { captureLogs } from "../support/logs.js";
import {
  lastUserMessageOf,
  ScriptedOpenAI,
  structuredModeOf,
  systemPromptOf,
} from "../support/scriptedOpenAI.js";

const Intent = z.object({
  intent: z.enum(["reminder", "task", "chat"]),
  when: z.string().nullable(),
});

const SYSTEM = "You are Memo's planner. Answer with the user's intent.";
const USER = "remind me to call Dana tomorrow at 9";
const messages: LLMMessage[] = [
  { role: "system", content: SYSTEM },
  { role: "user", content: USER },
];

const silent = createLogger("silent");
let server: ScriptedOpenAI;

beforeAll(async () => {
  server = await ScriptedOpenAI.start();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => server.reset());
afterEach(() => {
  // Every scripted reply was meant to be used, and nothing asked for more than was scripted.
  expect(server.unmatched).toEqual([]);
});

/** The service against the scripted server; retries off unless a test is about them. */
function service(env: NodeJS.ProcessEnv = {}): LLMService {
  const llm = createLLMService(
    loadConfig({ OPENAI_BASE_URL: server.baseUrl, LLM_MAX_RETRIES: "0", LLM_TIMEOUT_MS: "5000", ...env }),
    silent,
  );
  if (!llm) throw new Error("expected an LLM service");
  return llm;
}

async function failureOf(promise: Promise<unknown>): Promise<LLMError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof LLMError) return error;
    throw error;
  }
  throw new Error("expected an LLMError");
}

describe("structured output", () => {
  it.each([
    ["jsonSchema", "jsonSchema"],
    ["functionCalling", "functionCalling"],
    ["jsonMode", "jsonMode"],
  ] as const)(
    "with LLM_STRUCTURED_OUTPUT_METHOD=%s, parses and validates the answer",
    async (method, sent) => {
      server.enqueue({ json: { intent: "reminder", when: "tomorrow 09:00" } });

      const result = await service({ LLM_STRUCTURED_OUTPUT_METHOD: method }).structured(
        "planner",
        Intent,
        messages,
      );

      expect(result.value).toEqual({ intent: "reminder", when: "tomorrow 09:00" });
      expect(result.usage.fallback).toBe(false);
      const [request] = server.requests;
      expect(request && structuredModeOf(request)).toBe(sent);
      expect(request?.body.model).toBe("gpt-4o-mini");
    },
  );

  it.each(["jsonSchema", "functionCalling"] as const)(
    "with %s, each schema's request is built once and sent the same on every call, and never another schema's",
    async (method) => {
      const Other = z.object({ title: z.string() });
      server.enqueue(
        { json: { intent: "task", when: null } },
        { json: { title: "milk" } },
        { json: { intent: "chat", when: null } },
      );
      // Where LangChain converts a schema to its response_format (jsonSchema builds requests with it).
      const convert = vi.spyOn(
        ChatOpenAICompletions.prototype as unknown as {
          _getResponseFormat: (format?: { type?: string; json_schema?: { schema?: object } }) => unknown;
        },
        "_getResponseFormat",
      );
      const llm = service({ LLM_STRUCTURED_OUTPUT_METHOD: method });
      await llm.structured("planner", Intent, messages);
      expect((await llm.structured("planner", Other, messages, { name: "other" })).value).toEqual({
        title: "milk",
      });
      expect((await llm.structured("planner", Intent, messages)).value).toEqual({
        intent: "chat",
        when: null,
      });

      const [first, other, again] = server.requests.map(({ body }) =>
        JSON.stringify({ format: body.response_format ?? null, tools: body.tools ?? null }),
      );
      expect(again).toBe(first);
      expect(other).not.toBe(first);
      expect(other).toContain('"title"');
      expect(first).toContain('"intent"');
      // LangChain is handed the JSON Schema Memo converted once per schema, never a zod schema to
      // convert again on each request (three times per request, about a tenth of a turn's CPU).
      const formats = convert.mock.calls.map(([format]) => format).filter((f) => f?.type === "json_schema");
      expect(formats.length > 0).toBe(method === "jsonSchema");
      for (const format of formats) expect("_zod" in (format?.json_schema?.schema ?? {})).toBe(false);
      convert.mockRestore();
    },
  );

  it("sends the system prompt first, then the conversation in order, to the node's model", async () => {
    server.enqueue({ json: { intent: "chat", when: null } }, { json: { intent: "chat", when: null } });
    const llm = service();

    await llm.structured("resolver:calendar", Intent, [
      { role: "user", content: "first" },
      { role: "assistant", content: "second" },
      { role: "system", content: SYSTEM },
      { role: "user", content: "third" },
    ]);
    await llm.structured("imageAnalysis", Intent, messages);

    const [resolver, image] = server.requests;
    expect(resolver?.body.messages.map((m) => [m.role, m.content])).toEqual([
      ["system", SYSTEM],
      ["user", "first"],
      ["assistant", "second"],
      ["user", "third"],
    ]);
    expect(resolver?.body.model).toBe("gpt-4o-mini");
    expect(image?.body.model).toBe("gpt-4o");
    expect(image && systemPromptOf(image)).toBe(SYSTEM);
    expect(image && lastUserMessageOf(image)).toBe(USER);
  });

  it("computes usage and cost from the server's token counts and the model table", async () => {
    server.enqueue({
      json: { intent: "task", when: null },
      usage: { prompt_tokens: 1200, completion_tokens: 300 },
    });

    const { usage } = await service().structured("planner", Intent, messages);

    expect(usage).toMatchObject({
      node: "planner",
      model: "gpt-4o-mini",
      inputTokens: 1200,
      outputTokens: 300,
      fallback: false,
    });
    // gpt-4o-mini: $0.00015 per 1k input, $0.0006 per 1k output.
    expect(usage.costUsd).toBeCloseTo(1.2 * 0.00015 + 0.3 * 0.0006, 9);
    expect(usage.durationMs).toBeGreaterThanOrEqual(0);
  });

  it("measures duration with the injected clock", async () => {
    let now = 1_000;
    const llm = createLLMService(loadConfig({ OPENAI_BASE_URL: server.baseUrl }), silent, {
      clock: () => (now += 250),
    });
    server.enqueue({ json: { intent: "task", when: null } });

    const result = await llm?.structured("planner", Intent, messages);

    expect(result?.usage.durationMs).toBe(250);
  });

  it("retries a 429 on the same model and returns the answer", async () => {
    server.enqueue({ status: 429 }, { json: { intent: "reminder", when: "09:00" } });

    const result = await service({ LLM_MAX_RETRIES: "1" }).structured("planner", Intent, messages);

    expect(result.value.intent).toBe("reminder");
    expect(result.usage.fallback).toBe(false);
    expect(server.requests.map((r) => r.body.model)).toEqual(["gpt-4o-mini", "gpt-4o-mini"]);
  });

  it("answers from the fallback model when the node's model keeps failing with 500", async () => {
    server.on((req) => req.body.model === "gpt-4o-mini", { status: 500 });
    server.on((req) => req.body.model === "gpt-4o", {
      json: { intent: "task", when: null },
      usage: { prompt_tokens: 1000, completion_tokens: 1000 },
    });

    const result = await service().structured("planner", Intent, messages);

    expect(result.value).toEqual({ intent: "task", when: null });
    expect(result.usage).toMatchObject({ model: "gpt-4o", fallback: true, inputTokens: 1000 });
    // Priced as gpt-4o: $0.0025 + $0.01.
    expect(result.usage.costUsd).toBeCloseTo(0.0125, 9);
    expect(server.requests.map((r) => r.body.model)).toEqual(["gpt-4o-mini", "gpt-4o"]);
  });

  it("uses LLM_FALLBACK_MODEL as the fallback", async () => {
    server.enqueue({ status: 500 }, { json: { intent: "chat", when: null } });

    const result = await service({ LLM_FALLBACK_MODEL: "gpt-4.1-nano" }).structured(
      "planner",
      Intent,
      messages,
    );

    expect(result.usage.model).toBe("gpt-4.1-nano");
    expect(server.requests.at(-1)?.body.model).toBe("gpt-4.1-nano");
  });

  it.each(["jsonSchema", "functionCalling", "jsonMode"])(
    "with %s, after invalid JSON the fallback's valid answer is returned",
    async (method) => {
      server.enqueue({ rawContent: '{"intent": "remind' }, { json: { intent: "reminder", when: "09:00" } });

      const result = await service({ LLM_STRUCTURED_OUTPUT_METHOD: method }).structured(
        "planner",
        Intent,
        messages,
      );

      expect(result.value).toEqual({ intent: "reminder", when: "09:00" });
      expect(result.usage.fallback).toBe(true);
      expect(server.requests.map((r) => r.body.model)).toEqual(["gpt-4o-mini", "gpt-4o"]);
    },
  );

  it("counts the tokens of a rejected answer in the call's usage", async () => {
    server.enqueue(
      { rawContent: "not json", usage: { prompt_tokens: 1000, completion_tokens: 0 } },
      { json: { intent: "task", when: null }, usage: { prompt_tokens: 1000, completion_tokens: 0 } },
    );

    const { usage } = await service({ LLM_STRUCTURED_OUTPUT_METHOD: "jsonMode" }).structured(
      "planner",
      Intent,
      messages,
    );

    expect(usage).toMatchObject({ model: "gpt-4o", fallback: true, inputTokens: 2000, outputTokens: 0 });
    // 1k tokens at gpt-4o-mini's price, then 1k at gpt-4o's.
    expect(usage.costUsd).toBeCloseTo(0.00015 + 0.0025, 9);
  });

  it.each(["jsonSchema", "functionCalling", "jsonMode"])(
    "with %s, JSON that breaks the schema is rejected and the fallback answers",
    async (method) => {
      server.enqueue({ json: { intent: "dance", when: 9 } }, { json: { intent: "chat", when: null } });

      const result = await service({ LLM_STRUCTURED_OUTPUT_METHOD: method }).structured(
        "planner",
        Intent,
        messages,
      );

      expect(result.value).toEqual({ intent: "chat", when: null });
      expect(result.usage.fallback).toBe(true);
    },
  );

  it.each(["jsonSchema", "functionCalling", "jsonMode"])(
    "with %s, fails with invalid_output when every answer breaks the schema",
    async (method) => {
      server.on(() => true, { json: { intent: "dance", when: null } });

      const error = await failureOf(
        service({ LLM_STRUCTURED_OUTPUT_METHOD: method }).structured("planner", Intent, messages),
      );

      expect(error.kind).toBe("invalid_output");
    },
  );

  it.each(["jsonSchema", "functionCalling", "jsonMode"])(
    "with %s, fails with invalid_output when no model answers valid JSON, naming node and model but no content",
    async (method) => {
      server.on(() => true, { rawContent: "Sure! Dana at nine, got it" });

      const error = await failureOf(
        service({ LLM_STRUCTURED_OUTPUT_METHOD: method }).structured("planner", Intent, messages),
      );

      expect(error.kind).toBe("invalid_output");
      expect(error.context).toMatchObject({ node: "planner", model: "gpt-4o-mini", fallbackModel: "gpt-4o" });
      expect(server.requests).toHaveLength(2);
      let described = `${error.message} ${JSON.stringify(error.context)}`;
      for (let cause = error.cause; cause instanceof Error; cause = cause.cause)
        described += ` ${cause.message}`;
      expect(described).not.toContain("Dana");
      expect(described).not.toContain(SYSTEM);
    },
  );

  it("fails with timeout within bounded time when the server never answers", async () => {
    server.on(() => true, { hang: true });
    const started = Date.now();

    // The call's whole budget is twice one request's: 500 ms each leaves the fallback's request
    // time to reach the server on a loaded CI machine (at 150 ms it sometimes did not).
    const error = await failureOf(service({ LLM_TIMEOUT_MS: "500" }).structured("planner", Intent, messages));

    expect(error.kind).toBe("timeout");
    // Bounded by the budget (1 s), with room for a loaded machine.
    expect(Date.now() - started).toBeLessThan(4_000);
    expect(server.requests.map((r) => r.body.model)).toEqual(["gpt-4o-mini", "gpt-4o"]);
  });

  it("fails with rate_limited when every model answers 429", async () => {
    server.on(() => true, { status: 429 });

    const error = await failureOf(service().structured("planner", Intent, messages));

    expect(error.kind).toBe("rate_limited");
    expect(error.status).toBe(429);
  });

  it("fails with api_error on a server error from both models", async () => {
    server.on(() => true, { status: 503 });

    const error = await failureOf(service().text("responseWriter", messages));

    expect(error.kind).toBe("api_error");
    expect(error.status).toBe(503);
  });

  it("does not try the fallback after an authentication failure", async () => {
    server.on(() => true, { status: 401 }, { times: 1 });

    const error = await failureOf(service().text("responseWriter", messages));

    expect(error.kind).toBe("api_error");
    expect(server.requests).toHaveLength(1);
  });
});

describe("privacy", () => {
  it("keeps prompts and answers out of the logs, success or failure", async () => {
    const { logger, lines } = captureLogs();
    const llm = createLLMService(
      loadConfig({ OPENAI_BASE_URL: server.baseUrl, LLM_MAX_RETRIES: "0" }),
      logger,
    );
    server.enqueue(
      { rawContent: "Dana's number is 054-1234567" },
      { json: { intent: "reminder", when: "call Dana" } },
    );

    await llm?.structured("planner", Intent, messages);

    const logged = JSON.stringify(lines());
    expect(logged).not.toContain("Dana");
    expect(logged).not.toContain(SYSTEM);
    // One line per attempt: the failed one, then the answered one with its cost.
    expect(lines().map((l) => [l.msg, l.model])).toEqual([
      ["llm call failed", "gpt-4o-mini"],
      ["llm call", "gpt-4o"],
    ]);
  });
});

describe("text", () => {
  it("returns the answer, with the writer's temperature", async () => {
    server.enqueue({
      text: "Done: I'll remind you tomorrow at 09:00.",
      usage: { prompt_tokens: 50, completion_tokens: 12 },
    });

    const result = await service().text("responseWriter", messages);

    expect(result.value).toBe("Done: I'll remind you tomorrow at 09:00.");
    expect(result.usage).toMatchObject({ node: "responseWriter", inputTokens: 50, outputTokens: 12 });
    const [request] = server.requests;
    expect(request?.body.temperature).toBe(0.7);
    expect(request && structuredModeOf(request)).toBe("none");
  });

  it("treats an empty answer as invalid output and asks the fallback", async () => {
    server.enqueue({ text: "  " }, { text: "Hello!" });

    const result = await service().text("responseWriter", messages);

    expect(result.value).toBe("Hello!");
    expect(result.usage.fallback).toBe(true);
  });
});

describe("configuration", () => {
  it("runs without an LLM when neither OPENAI_API_KEY nor OPENAI_BASE_URL is set", () => {
    expect(createLLMService(loadConfig({}), silent)).toBeNull();
    expect(createLLMService(loadConfig({ OPENAI_API_KEY: "sk-test" }), silent)).not.toBeNull();
  });

  it("LLMError.notConfigured names the node", () => {
    const error = LLMError.notConfigured("planner");
    expect(error.kind).toBe("not_configured");
    expect(error.context.node).toBe("planner");
  });

  it("env overrides pick each node's model; a model outside the table costs 0", async () => {
    const llm = service({
      LLM_PLANNER_MODEL: "gpt-4.1-nano",
      LLM_RESOLVER_MODEL: "llama3.1:8b",
      LLM_RESPONSE_MODEL: "gpt-4o",
      LLM_IMAGE_MODEL: "gpt-4o-mini",
    });
    server.on(() => true, { json: { intent: "chat", when: null }, text: "ok" });

    await llm.structured("planner", Intent, messages);
    const resolver = await llm.structured("resolver:gmail", Intent, messages);
    await llm.text("responseWriter", messages);
    await llm.structured("imageAnalysis", Intent, messages);

    expect(server.requests.map((r) => r.body.model)).toEqual([
      "gpt-4.1-nano",
      "llama3.1:8b",
      "gpt-4o",
      "gpt-4o-mini",
    ]);
    expect(resolver.usage.model).toBe("llama3.1:8b");
    expect(resolver.usage.inputTokens).toBeGreaterThan(0);
    expect(resolver.usage.costUsd).toBe(0);
  });

  it("sends no temperature to an o1-style model, and its system prompt as developer", async () => {
    server.enqueue({ json: { intent: "chat", when: null } });

    await service({ LLM_PLANNER_MODEL: "o1" }).structured("planner", Intent, messages);

    const [request] = server.requests;
    expect(request?.body.model).toBe("o1");
    expect(request?.body).not.toHaveProperty("temperature");
    expect(request?.body.messages[0]?.role).toBe("developer");
    expect(request && systemPromptOf(request)).toBe(SYSTEM);
  });
});
