import { loadConfig } from "../../src/config/env.js";
import { LLM_MODELS, LLM_NODES, modelConfigOf, resolveLLMConfig } from "../../src/config/llmConfig.js";
import { costUsd } from "../../src/services/llm/cost.js";
import { structuredMethodFor } from "../../src/services/llm/structuredMethod.js";

const resolve = (env: NodeJS.ProcessEnv = {}) => resolveLLMConfig(loadConfig(env).llm);

describe("resolveLLMConfig", () => {
  it("uses the spec's defaults: gpt-4o-mini everywhere but image analysis, gpt-4o as fallback", () => {
    const config = resolve();
    expect(LLM_NODES.map((node) => [node, config.nodes[node].model])).toEqual([
      ["planner", "gpt-4o-mini"],
      ["responseWriter", "gpt-4o-mini"],
      ["imageAnalysis", "gpt-4o"],
      ["resolver:calendar", "gpt-4o-mini"],
      ["resolver:database", "gpt-4o-mini"],
      ["resolver:gmail", "gpt-4o-mini"],
      ["resolver:second-brain", "gpt-4o-mini"],
      ["resolver:general", "gpt-4o-mini"],
      ["documentOffers", "gpt-4o-mini"],
      ["memory", "gpt-4o-mini"],
    ]);
    expect(config.fallbacks.planner.model).toBe("gpt-4o");
    expect(config).toMatchObject({ structuredOutputMethod: "jsonSchema", timeoutMs: 30_000, maxRetries: 2 });
    expect(config.unknownModels).toEqual([]);
  });

  it("applies LLM_*_MODEL overrides; the resolver override covers every resolver", () => {
    const config = resolve({
      LLM_PLANNER_MODEL: "gpt-4o",
      LLM_RESOLVER_MODEL: "gpt-4.1-nano",
      LLM_RESPONSE_MODEL: "o1-mini",
      LLM_IMAGE_MODEL: "gpt-4o-mini",
      LLM_FALLBACK_MODEL: "gpt-4o-mini",
    });
    expect(config.nodes.planner.model).toBe("gpt-4o");
    expect(LLM_NODES.filter((n) => n.startsWith("resolver:")).map((n) => config.nodes[n].model)).toEqual(
      Array(5).fill("gpt-4.1-nano"),
    );
    expect(config.nodes.responseWriter.model).toBe("o1-mini");
    expect(config.nodes.imageAnalysis.model).toBe("gpt-4o-mini");
    expect(config.fallbacks.imageAnalysis.model).toBe("gpt-4o-mini");
  });

  it("keeps each node's temperature, except on models that reject it", () => {
    const config = resolve({ LLM_PLANNER_MODEL: "o1", LLM_RESOLVER_MODEL: "o3-mini" });
    expect(config.nodes.responseWriter.temperature).toBe(0.7);
    expect(config.fallbacks.responseWriter.temperature).toBe(0.7);
    expect(config.nodes.planner).not.toHaveProperty("temperature");
    expect(config.nodes["resolver:gmail"]).not.toHaveProperty("temperature");
  });

  it("accepts a model outside the table at zero cost with default capabilities, and lists it once", () => {
    const config = resolve({ LLM_PLANNER_MODEL: "qwen2.5:7b", LLM_RESOLVER_MODEL: "qwen2.5:7b" });
    expect(config.nodes.planner).toMatchObject({
      model: "qwen2.5:7b",
      inputCostPer1k: 0,
      outputCostPer1k: 0,
      supportsFunctionCalling: true,
    });
    expect(config.unknownModels).toEqual(["qwen2.5:7b"]);
  });

  it("does not take inherited object keys for model names", () => {
    expect(modelConfigOf("constructor").known).toBe(false);
  });
});

describe("model table", () => {
  it("prices gpt-4o-mini and gpt-4o as spec 002 §4.2 lists them", () => {
    expect(LLM_MODELS["gpt-4o-mini"]).toMatchObject({ inputCostPer1k: 0.00015, outputCostPer1k: 0.0006 });
    expect(LLM_MODELS["gpt-4o"]).toMatchObject({ inputCostPer1k: 0.0025, outputCostPer1k: 0.01 });
    expect(LLM_MODELS.o1).toMatchObject({ supportsCaching: false, supportsFunctionCalling: false });
  });

  it("costs a call from its tokens", () => {
    const model = modelConfigOf("gpt-4o").config;
    expect(costUsd(model, 2000, 500)).toBeCloseTo(0.005 + 0.005, 9);
    expect(costUsd(modelConfigOf("my-local-model").config, 10_000, 10_000)).toBe(0);
  });
});

describe("structuredMethodFor", () => {
  const model = (name: string) => modelConfigOf(name).config;

  it("passes the configured method through for current models", () => {
    expect(structuredMethodFor(model("gpt-4o-mini"), "jsonSchema")).toBe("jsonSchema");
    expect(structuredMethodFor(model("gpt-4o-mini"), "functionCalling")).toBe("functionCalling");
    expect(structuredMethodFor(model("llama3.1"), "jsonMode")).toBe("jsonMode");
  });

  it("uses function calling where json_schema is refused, and json_schema where tools are", () => {
    expect(structuredMethodFor(model("gpt-4-turbo"), "jsonSchema")).toBe("functionCalling");
    expect(structuredMethodFor(model("gpt-3.5-turbo"), "jsonSchema")).toBe("functionCalling");
    expect(structuredMethodFor(model("o1"), "functionCalling")).toBe("jsonSchema");
  });

  it("sends o1-mini and o1-preview, which take neither, the schema in the prompt (JSON mode)", () => {
    for (const configured of ["jsonSchema", "functionCalling", "jsonMode"] as const)
      expect(structuredMethodFor(model("o1-mini"), configured)).toBe("jsonMode");
    expect(structuredMethodFor(model("o1-preview"), "jsonSchema")).toBe("jsonMode");
  });
});
