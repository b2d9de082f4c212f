import { describe, expect, it } from 'vitest';
import { errorHint } from './error-hints';

describe('errorHint', () => {
  it('says a RATE_LIMITED answer is a per-user limit of this server, with when to retry when the server said', () => {
    expect(errorHint('RATE_LIMITED', { retry_after_s: 5 })).toBe("A per-user limit of this server was reached, not the model provider's. Try again in 5 s.");
    expect(errorHint('RATE_LIMITED')).toMatch(/per-user limit of this server/);
    expect(errorHint('RATE_LIMITED')).not.toMatch(/provider is rate-limiting/);
  });
});
