import { LangChainTracer, type LangChainTracerFields } from "@langchain/core/tracers/tracer_langchain";
import type { Run } from "@langchain/core/tracers/base";
import type { RunTree } from "langsmith";
import type { MemoState } from "../../types/state.js";

/** The name of every turn's root run in LangSmith. */
export const TURN_RUN_NAME = "memo-turn";

/** What the copies of one turn's tracer share (LangGraph copies the tracer per graph run). */
export interface TurnTrace {
  /** The turn's root run: the first run without a parent. */
  rootId?: string;
  /** Runs left out, and their descendants. */
  stray: Set<string>;
  /**
   * Makes a run's `extra` fit to send. The client redacts inputs, outputs, metadata and errors,
   * but sends the rest of `extra` as it is, and LangGraph puts its call options there (the thread
   * id, which is the phone number, among them).
   */
  scrubExtra: (extra: Record<string, unknown>) => Record<string, unknown>;
  /** Labels the root run at its end (default: from the graph's final state, `labelTurn`). */
  label?: (run: Run) => void;
}

/**
 * LangChain's LangSmith tracer for one turn. At the end of the root run it labels it with what
 * only the end knows: the capabilities of the plan as tags, and the turn's status, LLM calls,
 * tokens, cost and models as metadata. Work the turn started in the background (the memory
 * summary) outlives the root; such runs arrive with no parent left, and are not sent, so each
 * turn stays one trace.
 */
export class MemoTurnTracer extends LangChainTracer {
  constructor(
    fields: LangChainTracerFields,
    private readonly turn: TurnTrace,
  ) {
    super(fields);
  }

  override async onRunCreate(run: Run): Promise<void> {
    if (this.isStray(run)) return;
    await super.onRunCreate(run);
  }

  override async onRunUpdate(run: Run): Promise<void> {
    if (this.turn.stray.has(run.id)) return;
    if (run.id === this.turn.rootId) (this.turn.label ?? labelTurn)(run);
    await super.onRunUpdate(run);
  }

  /** LangGraph hands each graph run a copy carrying its configurable keys: it stays one of ours. */
  override copyWithTracingConfig(config: {
    metadata?: Record<string, unknown>;
    tags?: string[];
  }): LangChainTracer {
    const plain = super.copyWithTracingConfig(config);
    // thread_id among them is the phone number: the turn's own (hashed) thread_id stands.
    const { thread_id: _phone, ...metadata } = plain.tracingMetadata ?? {};
    const copy = new MemoTurnTracer({ ...this.fields, metadata, tags: plain.tracingTags }, this.turn);
    copy.runMap = this.runMap;
    copy.runTreeMap = this.runTreeMap;
    return copy;
  }

  /** The copy of a run that is sent: its `extra` scrubbed, the run itself left as it was. */
  override getRunTreeWithTracingConfig(id: string): RunTree | undefined {
    const tree = super.getRunTreeWithTracingConfig(id);
    if (tree?.extra) tree.extra = this.turn.scrubExtra(tree.extra);
    return tree;
  }

  private isStray(run: Run): boolean {
    const parent = run.parent_run_id;
    if (parent === undefined) {
      this.turn.rootId ??= run.id;
      if (run.id === this.turn.rootId) return false;
    } else if (!this.turn.stray.has(parent)) {
      return false;
    }
    this.turn.stray.add(run.id);
    return true;
  }
}

/** Tags and metadata of a finished turn, from its final state (before anything is redacted). */
function labelTurn(run: Run): void {
  const state = (run.outputs ?? {}) as Partial<MemoState>;
  const plan = state.plannerOutput?.plan ?? [];
  const usage = state.metadata?.llmUsage ?? [];
  const capabilities = [...new Set(plan.map((step) => step.capability))];
  const modelsByNode: Record<string, string> = {};
  for (const call of usage) modelsByNode[call.node] = call.model;
  run.tags = [...new Set([...(run.tags ?? []), ...capabilities])];
  run.extra = {
    ...run.extra,
    metadata: {
      ...(run.extra?.metadata as Record<string, unknown> | undefined),
      // The graph ends a turn that asks with the question open (the interrupt is not in its output).
      status: run.error ? "failed" : state.pendingHITL ? "waiting" : "completed",
      capabilities,
      actions: plan.map((step) => `${step.capability}.${step.action}`),
      llm_calls: state.metadata?.llmCalls ?? 0,
      input_tokens: usage.reduce((sum, call) => sum + call.inputTokens, 0),
      output_tokens: usage.reduce((sum, call) => sum + call.outputTokens, 0),
      total_tokens: state.metadata?.totalTokens ?? 0,
      total_cost_usd: state.metadata?.totalCost ?? 0,
      models: [...new Set(usage.map((call) => call.model))],
      models_by_node: modelsByNode,
    },
  };
}
