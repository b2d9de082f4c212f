import net from 'node:net';
import type { CheckedAddress } from './target-policy.js';

/** Resolves and checks a host for one new connection (TargetPolicy.check bound to the connection's database). */
export type Dial = (host: string, port: number) => Promise<CheckedAddress>;

/**
 * A socket whose `connect(port, host)` first resolves and checks the host, then connects to the address that
 * was checked: a DNS answer that changes between the check and the connect cannot redirect it. The drivers keep
 * the host name they were given, so TLS still verifies the certificate against it (and sends it as SNI).
 */
export class CheckedSocket extends net.Socket {
  constructor(private readonly dial: Dial) {
    super();
  }

  override connect(...args: unknown[]): this {
    const [port, host] = args;
    if ((typeof port !== 'number' && typeof port !== 'string') || typeof host !== 'string') {
      // Only the (port, host) form is used by pg and by us; anything else would skip the check.
      process.nextTick(() => this.destroy(new Error('CheckedSocket: connect(port, host) expected')));
      return this;
    }
    this.dial(host, Number(port)).then(
      ({ address, family }) => {
        if (!this.destroyed) super.connect({ port: Number(port), host: address, family });
      },
      (error: unknown) => this.destroy(error instanceof Error ? error : new Error(String(error))),
    );
    return this;
  }
}
