import type { RegistrationInfo } from '@aigis/contracts';

/**
 * Whether the sign-up screen offers its form, or says registration is invite-only or closed. Without
 * the server's answer the form is shown (the server decides anyway); the first account always may.
 */
export function signUpState(info: RegistrationInfo | null, invite: string | null): 'form' | 'invite-only' | 'closed' {
  if (!info || info.first_account || info.mode === 'open') return 'form';
  if (info.mode === 'invite') return invite ? 'form' : 'invite-only';
  return 'closed';
}
