import type { z } from "zod";

/** Every graph node that calls an LLM; the keys of the per-node model table (spec 002 §4.3). */
export type LLMNode =
  | "planner"
  | "responseWriter"
  | "imageAnalysis"
  | "resolver:calendar"
  | "resolver:database"
  | "resolver:gmail"
  | "resolver:second-brain"
  | "resolver:general"
  | "documentOffers"
  | "memory";

/** A part of a user message: text, or an image for a vision model. */
export type LLMContentPart =
  { type: "text"; text: string } | { type: "image"; mimeType: string; data: Buffer };

/** One chat message. System messages are sent first, so the static prompt prefix can be cached. */
export type LLMMessage =
  { role: "system" | "user" | "assistant"; content: string } | { role: "user"; content: LLMContentPart[] };

/** What one call cost; summed over both attempts when the fallback model answered. */
export interface LLMUsage {
  node: LLMNode;
  /** The model that gave the answer (the fallback model when `fallback`). */
  model: string;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  durationMs: number;
  /** The node's own model failed and the fallback model answered. */
  fallback: boolean;
}

export interface LLMResult<T> {
  value: T;
  usage: LLMUsage;
}

/** The only way graph nodes reach a language model; injected, so tests replace it. */
export interface LLMService {
  /** Structured output validated by the zod schema (a plain object schema, without transforms). */
  structured<T>(
    node: LLMNode,
    schema: z.ZodType<T>,
    messages: LLMMessage[],
    options?: { name?: string },
  ): Promise<LLMResult<T>>;
  /** Plain text answer; an empty answer counts as invalid output. */
  text(node: LLMNode, messages: LLMMessage[]): Promise<LLMResult<string>>;
}
