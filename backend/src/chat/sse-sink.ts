import type { Response } from 'express';
import { encodeSseEvent, SSE_PING, type StreamEvent } from '@aigis/contracts';

/** One text/event-stream response: headers at once, a keep-alive comment on an interval, nothing after close. */
export class SseSink {
  private readonly ping: NodeJS.Timeout;
  private closed = false;
  private corked = false;

  constructor(
    private readonly res: Response,
    pingMs: number,
  ) {
    res.status(200);
    res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
    res.setHeader('Cache-Control', 'no-cache, no-transform');
    res.setHeader('Connection', 'keep-alive');
    // Reverse proxies (nginx) would otherwise buffer the stream.
    res.setHeader('X-Accel-Buffering', 'no');
    res.flushHeaders();
    res.socket?.setNoDelay(true);
    this.ping = setInterval(() => this.write(SSE_PING), pingMs);
    res.once('close', () => this.close());
  }

  send(event: StreamEvent): void {
    this.write(encodeSseEvent(event));
  }

  get isOpen(): boolean {
    return !this.closed && !this.res.writableEnded && !this.res.destroyed;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.ping);
    // Node 24 drops what is still corked when a response ends, so flush it first.
    this.flush();
    if (!this.res.writableEnded) this.res.end();
  }

  /** Events written in the same tick leave in one socket write (many tokens can arrive at once). */
  private write(text: string): void {
    if (!this.isOpen) return;
    if (!this.corked) {
      this.corked = true;
      this.res.cork();
      process.nextTick(() => this.flush());
    }
    this.res.write(text);
  }

  private flush(): void {
    if (!this.corked) return;
    this.corked = false;
    this.res.uncork();
  }
}
