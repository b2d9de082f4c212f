/**
 * Stops a run that stalls or overruns. LLM_TIMEOUT_MS bounds the wait for an upstream's headers; a stream that
 * stalls after them is caught here: no activity for `stallMs` aborts the run. Activity only stamps a time (tokens
 * are frequent); the timer re-arms itself for what is left when it fires. A model that never stops streaming is
 * never idle: `maxTurnMs` ends the run whatever happens. The caller's own abort (the client left) passes through.
 */
export class StallWatchdog {
  private readonly run = new AbortController();
  private lastActivity = performance.now();
  private stallTimer: NodeJS.Timeout;
  private readonly turnTimer: NodeJS.Timeout;
  private readonly stopRun: () => void;
  /** The run went quiet for `stallMs`. */
  stalled = false;
  /** The run took longer than `maxTurnMs`. */
  overran = false;

  constructor(
    private readonly parent: AbortSignal,
    private readonly limits: { stallMs: number; maxTurnMs: number },
  ) {
    this.stopRun = () => this.run.abort(parent.reason);
    parent.addEventListener('abort', this.stopRun, { once: true });
    this.stallTimer = setTimeout(() => this.check(), limits.stallMs);
    this.turnTimer = setTimeout(() => {
      this.overran = true;
      this.run.abort(new Error('turn time limit'));
    }, limits.maxTurnMs);
  }

  /** Aborted by the caller, a stall or the turn's time limit. */
  get signal(): AbortSignal {
    return this.run.signal;
  }

  touch(): void {
    this.lastActivity = performance.now();
  }

  dispose(): void {
    clearTimeout(this.stallTimer);
    clearTimeout(this.turnTimer);
    this.parent.removeEventListener('abort', this.stopRun);
  }

  private check(): void {
    const idle = performance.now() - this.lastActivity;
    if (idle < this.limits.stallMs) {
      this.stallTimer = setTimeout(() => this.check(), this.limits.stallMs - idle);
      return;
    }
    this.stalled = true;
    this.run.abort(new Error('stalled'));
  }
}
