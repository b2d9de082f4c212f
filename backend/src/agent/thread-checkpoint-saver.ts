import { Logger } from '@nestjs/common';
import { AIMessage, type BaseMessage } from '@langchain/core/messages';
import type { RunnableConfig } from '@langchain/core/runnables';
import { BaseCheckpointSaver, type CheckpointTuple, emptyCheckpoint } from '@langchain/langgraph';

type PutArgs = Parameters<BaseCheckpointSaver['put']>;
type PutWritesArgs = Parameters<BaseCheckpointSaver['putWrites']>;
type ListOptions = Parameters<BaseCheckpointSaver['list']>[1];

/** Newest first: the ids of a thread's checkpoints, read without deserialising them. */
export type CheckpointIdLister = (threadId: string, checkpointNs: string) => Promise<string[]>;

export const UNREADABLE_TEXT = 'This part of the conversation could not be read back from storage, so it is not shown. The conversation goes on from before it.';

/** Deletes a thread's checkpoints (and their writes) but the `keep` newest. */
export type CheckpointPruner = (threadId: string, checkpointNs: string, keep: number) => Promise<void>;

/** Checkpoints kept when a turn starts: its own first one and the previous turn's last (the fallback if that breaks). */
export const CHECKPOINTS_KEPT = 2;

/**
 * How a thread's checkpoints are kept, around LangGraph's saver:
 * - A thread whose newest checkpoint cannot be read (a damaged blob, a value too large to deserialise) still opens:
 *   the newest readable one is used, with a message marked `unreadable` appended, so the thread loads, shows where
 *   something is missing, and takes the next message (whose checkpoint then follows the readable one).
 * - Superseded checkpoints are deleted when a turn starts (each holds the whole conversation, so keeping them all
 *   would store every result again in every later step); only the state of the thread is ever read back.
 */
export class ThreadCheckpointSaver extends BaseCheckpointSaver {
  private readonly logger = new Logger('Checkpoints');

  constructor(
    readonly inner: BaseCheckpointSaver,
    private readonly checkpointIds: CheckpointIdLister,
    private readonly prune: CheckpointPruner,
  ) {
    super(inner.serde);
  }

  async getTuple(config: RunnableConfig): Promise<CheckpointTuple | undefined> {
    try {
      return await this.inner.getTuple(config);
    } catch (error) {
      const { thread_id: threadId, checkpoint_ns: ns = '', checkpoint_id: asked } = config.configurable ?? {};
      // A specific checkpoint was asked for: nothing else may stand in for it.
      if (asked || !threadId) throw error;
      return this.newestReadable(String(threadId), String(ns), error);
    }
  }

  list(config: RunnableConfig, options?: ListOptions): AsyncGenerator<CheckpointTuple> {
    return this.inner.list(config, options);
  }

  async put(...args: PutArgs): Promise<RunnableConfig> {
    const next = await this.inner.put(...args);
    const [config, , metadata] = args;
    // 'input' starts a run, 'update' is a write outside one (a SQL: message): once per turn.
    if (metadata?.source === 'input' || metadata?.source === 'update') {
      const { thread_id: threadId, checkpoint_ns: ns = '' } = config.configurable ?? {};
      try {
        await this.prune(String(threadId), String(ns), CHECKPOINTS_KEPT);
      } catch (error) {
        // Old checkpoints cost space, not correctness: the answer goes on.
        this.logger.warn(`Thread ${threadId}: old checkpoints not deleted (${(error as Error).message})`);
      }
    }
    return next;
  }

  putWrites(...args: PutWritesArgs): Promise<void> {
    return this.inner.putWrites(...args);
  }

  deleteThread(threadId: string): Promise<void> {
    return this.inner.deleteThread(threadId);
  }

  override getNextVersion(current: number | undefined): number {
    return this.inner.getNextVersion(current);
  }

  private async newestReadable(threadId: string, ns: string, cause: unknown): Promise<CheckpointTuple> {
    const ids = await this.checkpointIds(threadId, ns);
    let skipped = 0;
    for (const id of ids) {
      try {
        const tuple = await this.inner.getTuple({ configurable: { thread_id: threadId, checkpoint_ns: ns, checkpoint_id: id } });
        if (!tuple) continue;
        this.logger.error(`Thread ${threadId}: ${skipped} newest checkpoint(s) unreadable (${(cause as Error)?.message ?? cause}); continuing from ${id}`);
        const values = tuple.checkpoint.channel_values as { messages?: BaseMessage[] };
        return {
          ...tuple,
          checkpoint: { ...tuple.checkpoint, channel_values: { ...values, messages: [...(values.messages ?? []), unreadableMarker(ids[0])] } },
          // The writes recorded on this checkpoint belong to the step that produced the unreadable one.
          pendingWrites: [],
        };
      } catch {
        skipped++;
      }
    }
    this.logger.error(`Thread ${threadId}: no checkpoint is readable (${(cause as Error)?.message ?? cause}); starting it over`);
    const checkpoint = emptyCheckpoint();
    checkpoint.channel_values = { messages: [unreadableMarker(ids[0] ?? checkpoint.id)] };
    checkpoint.channel_versions = { messages: this.getNextVersion(undefined) };
    return {
      config: { configurable: { thread_id: threadId, checkpoint_ns: ns, checkpoint_id: checkpoint.id } },
      checkpoint,
      metadata: { source: 'update', step: -1, parents: {} },
      pendingWrites: [],
    };
  }
}

/** The stand-in for what could not be read; its id is stable, so loading the thread again shows it once. */
function unreadableMarker(checkpointId: string): AIMessage {
  return new AIMessage({ id: `unreadable_${checkpointId}`, content: UNREADABLE_TEXT, response_metadata: { unreadable: true } });
}
