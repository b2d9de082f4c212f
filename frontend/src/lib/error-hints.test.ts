import { describe, expect, it } from 'vitest';
import { errorHint } from './error-hints';

describe('errorHint', () => {
  it('says a RATE_LIMITED answer with a retry time is a limit of this server (logins, sign-ups or per-user), with when to retry', () => {
    const hint = errorHint('RATE_LIMITED', { retry_after_s: 5 });
    expect(hint).toMatch(/^A limit of this server was reached .*not the model provider's\. Try again in 5 s\.$/);
    expect(hint).toMatch(/failed logins or sign-ups from your address/);
    expect(hint).toMatch(/what one user may run at once/);
  });

  it('says a RATE_LIMITED answer without a retry time is an answer that used its tool or model calls', () => {
    expect(errorHint('RATE_LIMITED')).toMatch(/^This answer reached a limit of this server on tool or model calls/);
    expect(errorHint('RATE_LIMITED')).not.toMatch(/provider is rate-limiting/);
  });

  it('has no hint for a code it does not know, nor where the message already says what to do', () => {
    expect(errorHint('SOMETHING_NEW')).toBeUndefined();
    expect(errorHint('toString')).toBeUndefined();
    expect(errorHint('VALIDATION_FAILED')).toBeUndefined();
    expect(errorHint('NETWORK_ERROR')).toMatch(/server is running/);
  });
});
