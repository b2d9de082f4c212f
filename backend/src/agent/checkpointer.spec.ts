import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { emptyCheckpoint, uuid6 } from '@langchain/langgraph-checkpoint';
import { afterEach, describe, expect, it } from 'vitest';
import type { AppConfig } from '../config/env.schema.js';
import { createCheckpointer, FREE_PAGES_KEPT } from './checkpointer.js';

/** One turn's first checkpoint (source 'input', which prunes) holding `bytes` of conversation. */
async function turn(saver: Awaited<ReturnType<typeof createCheckpointer>>['saver'], threadId: string, bytes: number, step: number) {
  const checkpoint = { ...emptyCheckpoint(), id: uuid6(step), channel_values: { messages: 'x'.repeat(bytes) + step } };
  await saver.put({ configurable: { thread_id: threadId, checkpoint_ns: '' } }, checkpoint, { source: 'input', step, parents: {} }, {});
}

describe('SQLite checkpoints: pruning each turn', () => {
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

  it('keeps the two newest checkpoints, reuses freed pages and gives them back only past FREE_PAGES_KEPT', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'aigis-checkpointer-'));
    dirs.push(dataDir);
    const checkpointer = await createCheckpointer({ dataDir } as AppConfig);
    const file = new SQLite(path.join(dataDir, 'checkpoints.sqlite'), { readonly: true });
    try {
      const freePages = () => file.pragma('freelist_count', { simple: true }) as number;
      const pages = () => file.pragma('page_count', { simple: true }) as number;
      // Small turns: what one prunes, the next writes into; nothing piles up, the file stops growing.
      for (let step = 0; step < 30; step++) await turn(checkpointer.saver, 'small', 200_000, step);
      const settled = pages();
      for (let step = 30; step < 60; step++) await turn(checkpointer.saver, 'small', 200_000, step);
      expect(pages()).toBeLessThanOrEqual(settled + 60);
      expect(file.prepare(`SELECT count(*) FROM checkpoints WHERE thread_id = 'small'`).pluck().get()).toBe(2);

      // A thread whose turns shrink frees more than the next one needs: past the bound, pages go back.
      for (let step = 0; step < 3; step++) await turn(checkpointer.saver, 'shrinking', 3_000_000, step);
      const before = pages();
      for (let step = 3; step < 6; step++) await turn(checkpointer.saver, 'shrinking', 1_000, step);
      expect(freePages()).toBeLessThanOrEqual(FREE_PAGES_KEPT);
      expect(pages()).toBeLessThan(before - FREE_PAGES_KEPT);
    } finally {
      file.close();
      await checkpointer.close();
    }
  });
});
