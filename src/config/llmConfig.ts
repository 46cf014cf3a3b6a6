import type { LLMNode } from "../types/llm.js";
import type { LLMSettings } from "./env.js";

/** The graph nodes that call a model, each with its settings below. @internal */
export const LLM_NODES: readonly LLMNode[] = [
  "planner",
  "responseWriter",
  "imageAnalysis",
  "resolver:calendar",
  "resolver:database",
  "resolver:gmail",
  "resolver:second-brain",
  "resolver:general",
  "documentOffers",
  "memory",
];

/** How structured output is asked of the model (the `method` of `withStructuredOutput`). */
export type StructuredOutputMethod = LLMSettings["structuredOutputMethod"];

/** What one model can do and what it costs (spec 002 §4.2). */
export interface LLMModelConfig {
  model: string;
  /** Largest answer in tokens (default: the server's own limit). */
  maxTokens?: number;
  /** Sampling temperature; only sent when `supportsTemperature`. */
  temperature?: number;
  /** OpenAI caches a static prompt prefix for these models. */
  supportsCaching: boolean;
  supportsFunctionCalling: boolean;
  supportsStreaming: boolean;
  /** o1-style reasoning models reject `temperature`. */
  supportsTemperature: boolean;
  /** How tools are declared to the model. */
  functionFormat: "tools" | "functions" | "none";
  /** USD per 1,000 input tokens. */
  inputCostPer1k: number;
  /** USD per 1,000 output tokens. */
  outputCostPer1k: number;
}

/** Known models, with list prices in USD. @internal */
export const LLM_MODELS: Readonly<Record<string, LLMModelConfig>> = {
  "gpt-4o": {
    model: "gpt-4o",
    supportsCaching: true,
    supportsFunctionCalling: true,
    supportsStreaming: true,
    supportsTemperature: true,
    functionFormat: "tools",
    inputCostPer1k: 0.0025,
    outputCostPer1k: 0.01,
  },
  "gpt-4o-mini": {
    model: "gpt-4o-mini",
    supportsCaching: true,
    supportsFunctionCalling: true,
    supportsStreaming: true,
    supportsTemperature: true,
    functionFormat: "tools",
    inputCostPer1k: 0.00015,
    outputCostPer1k: 0.0006,
  },
  o1: {
    model: "o1",
    supportsCaching: false,
    supportsFunctionCalling: false,
    supportsStreaming: false,
    supportsTemperature: false,
    functionFormat: "none",
    inputCostPer1k: 0.015,
    outputCostPer1k: 0.06,
  },
  "o1-mini": {
    model: "o1-mini",
    supportsCaching: false,
    supportsFunctionCalling: false,
    supportsStreaming: false,
    supportsTemperature: false,
    functionFormat: "none",
    inputCostPer1k: 0.003,
    outputCostPer1k: 0.012,
  },
  "gpt-4.1-nano": {
    model: "gpt-4.1-nano",
    supportsCaching: true,
    supportsFunctionCalling: true,
    supportsStreaming: true,
    supportsTemperature: true,
    functionFormat: "tools",
    inputCostPer1k: 0.0001,
    outputCostPer1k: 0.0004,
  },
};

/**
 * Speech models (text to speech), in USD per 1,000 characters spoken. tts-1 and tts-1-hd are priced
 * by the character; gpt-4o-mini-tts by tokens, which OpenAI estimates at about $0.015 a minute of
 * speech, roughly 1,000 characters: the same rate is used for it. A model not listed costs 0.
 */
const SPEECH_MODELS: Readonly<Record<string, number>> = {
  "gpt-4o-mini-tts": 0.015,
  "tts-1": 0.015,
  "tts-1-hd": 0.03,
};

/** The listed names, longest first: "tts-1-hd-1106" is tts-1-hd's snapshot, not tts-1's. */
const SPEECH_NAMES = Object.keys(SPEECH_MODELS).sort((a, b) => b.length - a.length);

/**
 * USD cost of speaking `characters` characters with `model` (a dated snapshot such as
 * "gpt-4o-mini-tts-2025-12-15" or "tts-1-1106" priced as its model), rounded to a billionth of a dollar.
 */
export function speechCostUsd(model: string, characters: number): number {
  const name = SPEECH_NAMES.find((listed) => model === listed || model.startsWith(`${listed}-`));
  const per1k = name ? SPEECH_MODELS[name]! : 0;
  return Math.round((characters / 1000) * per1k * 1e9) / 1e9;
}

/** A node's model and sampling settings before environment overrides. */
interface LLMNodeDefault {
  model: string;
  temperature?: number;
  maxTokens?: number;
}

/** Model of each node (spec 002 §4.3). Decisions run at temperature 0; the writer gets some variety. */
const DEFAULT_LLM_NODES: Readonly<Record<LLMNode, LLMNodeDefault>> = {
  // Needs good reasoning, and a static prompt that can be cached.
  planner: { model: "gpt-4o-mini", temperature: 0 },
  // Cheap and fast: it only phrases results.
  responseWriter: { model: "gpt-4o-mini", temperature: 0.7 },
  // Needs vision.
  imageAnalysis: { model: "gpt-4o", temperature: 0 },
  // Resolvers turn a step into tool arguments: function calling, deterministic.
  "resolver:calendar": { model: "gpt-4o-mini", temperature: 0 },
  "resolver:database": { model: "gpt-4o-mini", temperature: 0 },
  "resolver:gmail": { model: "gpt-4o-mini", temperature: 0 },
  "resolver:second-brain": { model: "gpt-4o-mini", temperature: 0 },
  "resolver:general": { model: "gpt-4o-mini", temperature: 0 },
  // A document's dates offered back (issue 37): words copied from it, read in code.
  documentOffers: { model: "gpt-4o-mini", temperature: 0 },
  // Conversation summaries and remembered facts, in the background: cheap, deterministic.
  memory: { model: "gpt-4o-mini", temperature: 0 },
};

/** The env variable that overrides each node's model. */
const OVERRIDE_OF: Record<LLMNode, keyof Omit<LLMSettings["models"], "fallback">> = {
  planner: "planner",
  responseWriter: "response",
  imageAnalysis: "image",
  "resolver:calendar": "resolver",
  "resolver:database": "resolver",
  "resolver:gmail": "resolver",
  "resolver:second-brain": "resolver",
  "resolver:general": "resolver",
  documentOffers: "resolver",
  memory: "memory",
};

/** Capabilities assumed for a model the table does not know (any OpenAI-compatible server); it costs 0. */
function unknownModel(model: string): LLMModelConfig {
  return {
    model,
    supportsCaching: false,
    supportsFunctionCalling: true,
    supportsStreaming: true,
    // OpenAI's reasoning models (o1, o3, o4-mini...) reject temperature.
    supportsTemperature: !/^o\d/.test(model),
    functionFormat: "tools",
    inputCostPer1k: 0,
    outputCostPer1k: 0,
  };
}

/** The table entry of a model, or default capabilities at zero cost when it is not in the table. @internal */
export function modelConfigOf(model: string): { config: LLMModelConfig; known: boolean } {
  const known = Object.hasOwn(LLM_MODELS, model) ? LLM_MODELS[model] : undefined;
  return known ? { config: known, known: true } : { config: unknownModel(model), known: false };
}

/** Which model every node uses, after environment overrides. */
export interface ResolvedLLMConfig {
  nodes: Record<LLMNode, LLMModelConfig>;
  /** The model tried once when the node's own fails (LLM_FALLBACK_MODEL), with the node's sampling settings. */
  fallbacks: Record<LLMNode, LLMModelConfig>;
  structuredOutputMethod: StructuredOutputMethod;
  /** Whether a schema is sent strict (LLM_STRUCTURED_OUTPUT_STRICT). */
  structuredOutputStrict: boolean;
  timeoutMs: number;
  maxRetries: number;
  baseUrl?: string;
  /** Model names given by env that are not in LLM_MODELS (counted at zero cost). */
  unknownModels: string[];
}

/** A model with a node's sampling settings; temperature is dropped where the model rejects it. */
function forNode(model: LLMModelConfig, defaults: LLMNodeDefault): LLMModelConfig {
  return {
    ...model,
    ...(defaults.maxTokens !== undefined ? { maxTokens: defaults.maxTokens } : {}),
    ...(defaults.temperature !== undefined && model.supportsTemperature
      ? { temperature: defaults.temperature }
      : {}),
  };
}

/** Applies the env overrides (LLM_*_MODEL, LLM_FALLBACK_MODEL) to the per-node defaults. */
export function resolveLLMConfig(settings: LLMSettings): ResolvedLLMConfig {
  const unknown = new Set<string>();
  const lookup = (model: string): LLMModelConfig => {
    const { config, known } = modelConfigOf(model);
    if (!known) unknown.add(model);
    return config;
  };

  const fallback = lookup(settings.models.fallback);
  const nodes = {} as Record<LLMNode, LLMModelConfig>;
  const fallbacks = {} as Record<LLMNode, LLMModelConfig>;
  for (const node of LLM_NODES) {
    const defaults = DEFAULT_LLM_NODES[node];
    nodes[node] = forNode(lookup(settings.models[OVERRIDE_OF[node]] ?? defaults.model), defaults);
    fallbacks[node] = forNode(fallback, defaults);
  }

  return {
    nodes,
    fallbacks,
    structuredOutputMethod: settings.structuredOutputMethod,
    structuredOutputStrict: settings.structuredOutputStrict,
    timeoutMs: settings.timeoutMs,
    maxRetries: settings.maxRetries,
    baseUrl: settings.baseUrl,
    unknownModels: [...unknown],
  };
}
