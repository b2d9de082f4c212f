import type {
  AdminUser,
  CreatedInvite,
  CreateGrantRequest,
  CreateInviteRequest,
  InstanceSettings,
  Invite,
  RegistrationMode,
  SqliteGrant,
  UpdateSettingsRequest,
  UpdateUserRequest,
} from '@aigis/contracts';
import { api } from '../../lib/api-client';

export const adminApi = {
  users: () => api.get<AdminUser[]>('/admin/users'),
  updateUser: (id: string, change: UpdateUserRequest) => api.patch<AdminUser>(`/admin/users/${encodeURIComponent(id)}`, change),
  invites: () => api.get<Invite[]>('/admin/invites'),
  createInvite: (expiresInHours: number) => api.post<CreatedInvite>('/admin/invites', { expires_in_hours: expiresInHours } satisfies CreateInviteRequest),
  revokeInvite: (id: string) => api.delete(`/admin/invites/${encodeURIComponent(id)}`),
  settings: () => api.get<InstanceSettings>('/admin/settings'),
  setRegistration: (registration: RegistrationMode) => api.patch<InstanceSettings>('/admin/settings', { registration } satisfies UpdateSettingsRequest),
  grants: () => api.get<SqliteGrant[]>('/admin/sqlite-grants'),
  createGrant: (userId: string, path: string) => api.post<SqliteGrant>('/admin/sqlite-grants', { user_id: userId, path } satisfies CreateGrantRequest),
  deleteGrant: (id: string) => api.delete(`/admin/sqlite-grants/${encodeURIComponent(id)}`),
};
