import crypto from 'node:crypto';

export interface ApiResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

/** A thin fetch wrapper for tests and benchmarks: JSON in, JSON (or text) out, never throws on HTTP errors. */
export class ApiClient {
  constructor(
    readonly baseUrl: string,
    public token?: string,
  ) {}

  async request<T = any>(method: string, path: string, body?: unknown, init: RequestInit = {}): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...(init.headers as Record<string, string>) };
    if (this.token) headers.authorization = `Bearer ${this.token}`;
    if (body !== undefined && typeof body !== 'string') headers['content-type'] = 'application/json';
    if (typeof body === 'string') headers['content-type'] ??= 'application/json';
    const response = await fetch(this.baseUrl + path, {
      ...init,
      method,
      headers,
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await response.text();
    let parsed: unknown = text;
    if ((response.headers.get('content-type') ?? '').includes('json') && text) parsed = JSON.parse(text);
    return { status: response.status, body: parsed as T, headers: response.headers };
  }

  get<T = any>(path: string) {
    return this.request<T>('GET', path);
  }
  post<T = any>(path: string, body?: unknown) {
    return this.request<T>('POST', path, body ?? {});
  }
  put<T = any>(path: string, body: unknown) {
    return this.request<T>('PUT', path, body);
  }
  patch<T = any>(path: string, body: unknown) {
    return this.request<T>('PATCH', path, body);
  }
  delete<T = any>(path: string) {
    return this.request<T>('DELETE', path);
  }

  /** Registers a fresh user, logs in and keeps its bearer token (register itself answers the same for every email). */
  async register(
    email = `user-${crypto.randomUUID()}@example.com`,
    password = 'correct horse battery',
    extra: { invite?: string } = {},
  ): Promise<{ id: string; email: string; role: string; password: string }> {
    const response = await this.post('/api/auth/register', { email, password, ...extra });
    if (response.status !== 202) throw new Error(`register failed: ${response.status} ${JSON.stringify(response.body)}`);
    return this.login(email, password);
  }

  async login(email: string, password: string): Promise<{ id: string; email: string; role: string; password: string }> {
    const response = await this.post('/api/auth/login', { email, password });
    if (response.status !== 200) throw new Error(`login failed: ${response.status} ${JSON.stringify(response.body)}`);
    this.token = response.body.token;
    return { ...response.body.user, password };
  }

  as(token?: string): ApiClient {
    return new ApiClient(this.baseUrl, token);
  }
}
