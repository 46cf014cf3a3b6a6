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
  /** Per thread, the checkpoints read from the durable store this turn: their writes go there too. */
  private readonly onDisk = new Map<string, Set<string>>();
  /**
   * Per thread, its latest durable checkpoint as read this turn (undefined: it has none), while
   * nothing was written against it since: the graph's own reads of it, right after `readLatest`
   * (the latest, then the same one by id for LangGraph's walk over channels kept as deltas), are
   * answered without a query.
   */
  private readonly latest = new Map<string, CheckpointTuple | undefined>();

  constructor(
    readonly durable: BaseCheckpointSaver,
    private readonly options: {
      /**
       * Whether the durable store holds any checkpoint of the thread: a cheap look that lets
       * `readLatest` skip the full read on the turns with no open question (nearly all). Default:
       * none, always the full read.
       */
      hasCheckpoints?: (threadId: string) => Promise<boolean>;
    } = {},
  ) {
    super(durable.serde);
  }

  async getTuple(config: RunnableConfig): Promise<CheckpointTuple | undefined> {
    const buffered = await this.buffer.getTuple(config);
    if (buffered) return buffered;
    const threadId = config.configurable?.thread_id as string | undefined;
    const id = config.configurable?.checkpoint_id as string | undefined;
    if (threadId && this.latest.has(threadId)) {
      const read = this.latest.get(threadId);
      if (!id || (read && read.config.configurable?.checkpoint_id === id)) return read;
    }
    const tuple = this.noteOnDisk(await this.durable.getTuple(config));
    if (threadId && !id) this.latest.set(threadId, tuple);
    return tuple;
  }

  private noteOnDisk(tuple: CheckpointTuple | undefined): CheckpointTuple | undefined {
    const threadId = tuple?.config.configurable?.thread_id as string | undefined;
    const id = tuple?.config.configurable?.checkpoint_id as string | undefined;
    if (threadId && id) this.onDisk.set(threadId, (this.onDisk.get(threadId) ?? new Set()).add(id));
    return tuple;
  }

  /**
   * Reads the thread's latest durable checkpoint at the start of a turn; the graph's own reads of
   * it, which follow at once in the same turn, are then answered without another query.
   * `stored`, when the caller already knows whether the durable store holds any checkpoint of the
   * thread (asked in this turn, under the phone's lease), stands in for `hasCheckpoints`.
   */
  async readLatest(threadId: string, stored?: boolean): Promise<CheckpointTuple | undefined> {
    stored ??= (await this.options.hasCheckpoints?.(threadId)) ?? true;
    const tuple = stored
      ? this.noteOnDisk(await this.durable.getTuple({ configurable: { thread_id: threadId } }))
      : undefined;
    this.latest.set(threadId, tuple);
    return tuple;
  }

  /** This turn's checkpoints (newest), then the stored ones. */
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
   * Writes against a checkpoint that is on disk (a resumed question answered wrongly: the node asks
   * again within the same step, so no new checkpoint is made) go straight to disk, or the answer
   * would be lost; writes of this turn's own checkpoints stay in the buffer. Decided by where the
   * checkpoint came from, because LangGraph may write before its put of the same checkpoint lands.
   */
  putWrites(config: RunnableConfig, writes: PendingWrite[], taskId: string): Promise<void> {
    const threadId = config.configurable?.thread_id as string | undefined;
    const id = config.configurable?.checkpoint_id as string | undefined;
    const target = threadId && id && this.onDisk.get(threadId)?.has(id) ? this.durable : this.buffer;
    // What was read of that checkpoint no longer holds all its writes.
    if (target === this.durable && threadId) this.latest.delete(threadId);
    return target.putWrites(config, writes, taskId);
  }

  override getNextVersion(current: number | undefined): number {
    return this.durable.getNextVersion(current);
  }

  /** Forgets the thread everywhere. */
  async deleteThread(threadId: string): Promise<void> {
    this.forget(threadId);
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
    this.forget(threadId);
    await this.buffer.deleteThread(threadId);
  }

  private forget(threadId: string): void {
    this.onDisk.delete(threadId);
    this.latest.delete(threadId);
  }

  /** Drops the thread's buffered writes (a completed turn: nothing of it needs keeping). */
  discard(threadId: string): Promise<void> {
    this.forget(threadId);
    return this.buffer.deleteThread(threadId);
  }
}
