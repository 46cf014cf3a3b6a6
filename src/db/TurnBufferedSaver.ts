import {
  BaseCheckpointSaver,
  MemorySaver,
  type ChannelVersions,
  type Checkpoint,
  type CheckpointListOptions,
  type CheckpointMetadata,
  type CheckpointTuple,
  type PendingWrite,
} from "@langchain/langgraph-checkpoint";
import type { RunnableConfig } from "@langchain/core/runnables";

/**
 * A checkpointer that keeps a turn's writes in memory and hands them to the durable saver
 * (PostgresSaver) only when the turn ends waiting on a question.
 *
 * Spec 001 deletes a thread's checkpoints after every completed turn, so writing them first is
 * pure cost: with durability "exit", PostgresSaver writes one row per changed channel (34 for a
 * simple turn) and the delete follows at once; measured here that was two thirds of a turn's
 * SQL. Reads see the turn's own writes first, then the durable ones (a resumed question).
 *
 * Durability is that of durability "exit": a paused question is on disk before it is sent
 * (`flush`), and a turn that dies midway left nothing and is run again from the inbox (D4).
 * One turn per thread at a time (D4) keeps the per-thread buffer unshared.
 */
export class TurnBufferedSaver extends BaseCheckpointSaver {
  private readonly buffer = new MemorySaver();
  /** The thread's latest durable checkpoint as `readLatest` just read it, for the graph's own read that follows. */
  private readonly primed = new Map<string, CheckpointTuple | undefined>();

  constructor(readonly durable: BaseCheckpointSaver) {
    super(durable.serde);
  }

  async getTuple(config: RunnableConfig): Promise<CheckpointTuple | undefined> {
    const buffered = await this.buffer.getTuple(config);
    if (buffered) return buffered;
    const threadId = config.configurable?.thread_id as string | undefined;
    if (threadId && !config.configurable?.checkpoint_id && this.primed.has(threadId)) {
      const tuple = this.primed.get(threadId);
      this.primed.delete(threadId);
      return tuple;
    }
    return this.durable.getTuple(config);
  }

  /**
   * Reads the thread's latest durable checkpoint at the start of a turn; the graph's own read of
   * it, which follows at once in the same turn, is then answered without a second query.
   */
  async readLatest(threadId: string): Promise<CheckpointTuple | undefined> {
    const tuple = await this.durable.getTuple({ configurable: { thread_id: threadId } });
    this.primed.set(threadId, tuple);
    return tuple;
  }

  async *list(config: RunnableConfig, options?: CheckpointListOptions): AsyncGenerator<CheckpointTuple> {
    yield* this.buffer.list(config, options);
    yield* this.durable.list(config, options);
  }

  put(
    config: RunnableConfig,
    checkpoint: Checkpoint,
    metadata: CheckpointMetadata,
    _newVersions: ChannelVersions,
  ): Promise<RunnableConfig> {
    return this.buffer.put(config, checkpoint, metadata);
  }

  /**
   * Writes of a buffered checkpoint stay in the buffer. Writes against a checkpoint that is only on
   * disk (a resumed question answered wrongly: the node asks again within the same step, so no new
   * checkpoint is made) go straight to disk, or the answer would be lost.
   */
  async putWrites(config: RunnableConfig, writes: PendingWrite[], taskId: string): Promise<void> {
    const buffered = await this.buffer.getTuple(config);
    if (buffered) return this.buffer.putWrites(config, writes, taskId);
    return this.durable.putWrites(config, writes, taskId);
  }

  override getNextVersion(current: number | undefined): number {
    return this.durable.getNextVersion(current);
  }

  /** Forgets the thread everywhere. */
  async deleteThread(threadId: string): Promise<void> {
    this.primed.delete(threadId);
    await this.buffer.deleteThread(threadId);
    await this.durable.deleteThread(threadId);
  }

  /** Writes the thread's latest buffered checkpoint and its pending writes (the interrupt) durably. */
  async flush(threadId: string): Promise<void> {
    const tuple = await this.buffer.getTuple({ configurable: { thread_id: threadId } });
    if (!tuple) return;
    const ns = (tuple.config.configurable?.checkpoint_ns as string | undefined) ?? "";
    const parent = tuple.parentConfig ?? { configurable: { thread_id: threadId, checkpoint_ns: ns } };
    // Every channel is new to the durable store's copy of this checkpoint.
    const saved = await this.durable.put(
      parent,
      tuple.checkpoint,
      tuple.metadata ?? { source: "loop", step: -1, parents: {} },
      tuple.checkpoint.channel_versions,
    );
    const byTask = new Map<string, PendingWrite[]>();
    for (const [taskId, channel, value] of tuple.pendingWrites ?? []) {
      byTask.set(taskId, [...(byTask.get(taskId) ?? []), [channel, value]]);
    }
    for (const [taskId, writes] of byTask) await this.durable.putWrites(saved, writes, taskId);
    await this.buffer.deleteThread(threadId);
  }

  /** Drops the thread's buffered writes (a completed turn: nothing of it needs keeping). */
  discard(threadId: string): Promise<void> {
    this.primed.delete(threadId);
    return this.buffer.deleteThread(threadId);
  }
}
