// A question typed on the home screen, before its thread existed: the thread view sends it once it opens.
const pending = new Map<string, string>();

export const pendingMessage = {
  set(threadId: string, content: string): void {
    pending.set(threadId, content);
  },
  take(threadId: string): string | undefined {
    const content = pending.get(threadId);
    pending.delete(threadId);
    return content;
  },
};
