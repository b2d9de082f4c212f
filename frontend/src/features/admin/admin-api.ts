import type { AdminUser, CreatedInvite, InstanceSettings, Invite, RegistrationMode, SqliteGrant, UserRole } from '@aigis/contracts';
import { api } from '../../lib/api-client';

export const adminApi = {
  users: () => api.get<AdminUser[]>('/admin/users'),
  updateUser: (id: string, change: { role?: UserRole; disabled?: boolean }) => api.patch<AdminUser>(`/admin/users/${encodeURIComponent(id)}`, change),
  invites: () => api.get<Invite[]>('/admin/invites'),
  createInvite: (expiresInHours: number) => api.post<CreatedInvite>('/admin/invites', { expires_in_hours: expiresInHours }),
  revokeInvite: (id: string) => api.delete(`/admin/invites/${encodeURIComponent(id)}`),
  settings: () => api.get<InstanceSettings>('/admin/settings'),
  setRegistration: (registration: RegistrationMode) => api.patch<InstanceSettings>('/admin/settings', { registration }),
  grants: () => api.get<SqliteGrant[]>('/admin/sqlite-grants'),
  createGrant: (userId: string, path: string) => api.post<SqliteGrant>('/admin/sqlite-grants', { user_id: userId, path }),
  deleteGrant: (id: string) => api.delete(`/admin/sqlite-grants/${encodeURIComponent(id)}`),
};
