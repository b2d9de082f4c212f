import type { AuthResponse, User } from '@aigis/contracts';
import { api } from '../../lib/api-client';

export const authApi = {
  register: (email: string, password: string) => api.post<AuthResponse>('/auth/register', { email, password }),
  login: (email: string, password: string) => api.post<AuthResponse>('/auth/login', { email, password }),
  me: () => api.get<User>('/auth/me'),
  logout: () => api.post<void>('/auth/logout'),
};
