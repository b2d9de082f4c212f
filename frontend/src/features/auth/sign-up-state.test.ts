import { describe, expect, it } from 'vitest';
import { signUpState } from './sign-up-state';

describe('signUpState', () => {
  it('offers the form when open, for the first account, or with an invite in invite mode', () => {
    expect(signUpState({ mode: 'open', first_account: false }, null)).toBe('form');
    expect(signUpState({ mode: 'closed', first_account: true }, null)).toBe('form');
    expect(signUpState({ mode: 'invite', first_account: false }, 'inv_x')).toBe('form');
    expect(signUpState(null, null)).toBe('form');
  });

  it('says invite-only or closed otherwise (an invite does not open a closed instance)', () => {
    expect(signUpState({ mode: 'invite', first_account: false }, null)).toBe('invite-only');
    expect(signUpState({ mode: 'closed', first_account: false }, 'inv_x')).toBe('closed');
  });
});
