import type { LoginRequest, RegisterRequest, RegisterResponse, RegistrationInfo, SessionResponse, SessionStatus, User } from '@aigis/contracts';
import { api } from '../../lib/api-client';

export const authApi = {
  registration: () => api.get<RegistrationInfo>('/auth/registration'),
  /** Answers the same whether or not the email had an account; the app then logs in. */
  register: (email: string, password: string, invite?: string) =>
    api.post<RegisterResponse>('/auth/register', { email, password, ...(invite ? { invite } : {}) } satisfies RegisterRequest),
  /** `session: 'cookie'`: the server sets the httpOnly session cookie; no token reaches the page. */
  login: (email: string, password: string) => api.post<SessionResponse>('/auth/login', { email, password, session: 'cookie' } satisfies LoginRequest),
  me: () => api.get<User>('/auth/me'),
  /** 200 whether or not signed in (no 401 in the console of a signed-out visitor). */
  session: () => api.get<SessionStatus>('/auth/session'),
  logout: () => api.post<void>('/auth/logout'),
};
