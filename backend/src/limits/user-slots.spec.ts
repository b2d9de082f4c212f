import { describe, expect, it } from 'vitest';
import { rateLimited } from '../common/rate-limited.js';
import { UserSlots } from './user-slots.js';

describe('UserSlots', () => {
  const slots = () => new UserSlots(2, (limit) => rateLimited(`over ${limit}.`, 3));

  it('refuses the slot past the limit with RATE_LIMITED and when to retry, per user', () => {
    const s = slots();
    s.take('alice');
    s.take('alice');
    let error: unknown;
    try {
      s.take('alice');
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({ code: 'RATE_LIMITED', message: 'over 2. Try again in 3 s.', details: { retry_after_s: 3 } });
    expect(() => s.take('bob')).not.toThrow();
  });

  it('gives a slot back once however often it is released, and forgets users with nothing running', () => {
    const s = slots();
    const first = s.take('alice');
    const second = s.take('alice');
    first();
    first();
    first();
    expect(s.count('alice')).toBe(1);
    second();
    expect(s.count('alice')).toBe(0);
    expect(s.activeUsers).toBe(0);
    s.take('alice');
    s.take('alice');
    expect(s.count('alice')).toBe(2);
  });
});
