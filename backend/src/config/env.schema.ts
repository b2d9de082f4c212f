import path from 'node:path';
import { z } from 'zod';
import { parseHostRules } from './host-rules.js';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');
const int = (min: number, max: number) => z.coerce.number().int().min(min).max(max);
const optionalUrl = z.url().optional();

/**
 * Every environment variable the API reads, validated once at boot (see `.env.example`).
 * Empty strings count as unset so a blank line in an env file does not break the start.
 */
export const envSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
    PORT: int(0, 65535).default(3000),
    /** Loopback by default: listening on every interface is a deployment decision (the Docker image sets 0.0.0.0). */
    HOST: z.string().default('127.0.0.1'),
    /** Behind one reverse proxy: believe the address it appends to X-Forwarded-For and its X-Forwarded-Proto. */
    TRUST_PROXY: bool.default(false),
    /** API processes sharing the port (node:cluster); 'auto' = one per CPU core. */
    WORKERS: z.union([z.literal('auto'), z.coerce.number().int().min(1).max(64)]).default(1),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    DATA_DIR: z.string().default('./data'),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL (leave it unset for the embedded SQLite storage)')
      .optional(),
    MASTER_ENCRYPTION_KEY: z
      .string()
      .regex(/^([0-9a-fA-F]{64}|[A-Za-z0-9+/]{43}=)$/, 'must be 32 bytes as 64 hex characters or base64')
      .optional(),
    PREVIOUS_ENCRYPTION_KEYS: z.string().optional(),
    SQLITE_ROOT: z.string().optional(),
    DEMO_DATABASE: bool.default(true),
    FRONTEND_DIST: z.string().optional(),
    CORS_ORIGIN: z.string().optional(),

    /** open | invite | closed. Unset: `open` embedded, `invite` in server mode, and admins may change it at run time. */
    REGISTRATION: z.enum(['open', 'invite', 'closed']).optional(),
    /** Registration attempts allowed per client address per hour. */
    REGISTRATIONS_PER_HOUR: int(1, 100_000).default(10),
    TOKEN_TTL_HOURS: int(1, 24 * 365).default(24 * 30),
    LOGIN_MAX_FAILURES: int(1, 1000).default(5),
    LOGIN_WINDOW_MINUTES: int(1, 24 * 60).default(15),

    CONNECT_TIMEOUT_MS: int(100, 120_000).default(5000),
    /** Comma-separated host names (`*.example.com`), addresses and CIDRs user connections may reach (unset: any). */
    CONNECTION_ALLOW_HOSTS: z.string().optional(),
    /** Comma-separated host names, addresses and CIDRs user connections may never reach. */
    CONNECTION_DENY_HOSTS: z.string().optional(),
    STATEMENT_TIMEOUT_MS: int(100, 3_600_000).default(30_000),
    /** The longest statement timeout a connection may set for itself (unset: STATEMENT_TIMEOUT_MS). */
    STATEMENT_TIMEOUT_MAX_MS: int(100, 3_600_000).optional(),
    ROW_LIMIT: int(1, 100_000).default(500),
    ROW_LIMIT_MAX: int(1, 1_000_000).default(5000),
    RESULT_CELL_MAX_BYTES: int(64, 16 * 1024 * 1024).default(64 * 1024),
    RESULT_MAX_BYTES: int(1024, 256 * 1024 * 1024).default(5 * 1024 * 1024),
    TURN_STORE_MAX_BYTES: int(1024, 1024 * 1024 * 1024).default(8 * 1024 * 1024),
    POOL_MAX: int(1, 100).default(5),
    POOL_CACHE_MAX: int(1, 10_000).default(100),
    POOL_IDLE_MS: int(1000, 86_400_000).default(300_000),
    SCHEMA_CACHE_TTL_S: int(0, 86_400).default(300),
    SCHEMA_SAMPLE_CONCURRENCY: int(1, 64).default(8),
    SCHEMA_SAMPLE_TIMEOUT_MS: int(100, 60_000).default(3000),
    SCHEMA_PROMPT_BUDGET: int(200, 1_000_000).default(24_000),

    DEFAULT_MODEL: z.string().optional(),
    LM_STUDIO_ENDPOINT: optionalUrl,
    LM_STUDIO_API_KEY: z.string().optional(),
    /** The context window LM Studio loads the models it lists with (models Aigis knows have their own). */
    LM_STUDIO_CONTEXT_WINDOW: int(512, 10_000_000).optional(),
    DEEPSEEK_API_KEY: z.string().optional(),
    DEEPSEEK_BASE_URL: z.url().default('https://api.deepseek.com/v1'),
    OPENAI_API_KEY: z.string().optional(),
    OPENAI_BASE_URL: optionalUrl,
    OPENAI_MODELS: z.string().default('gpt-4o-mini,gpt-4o'),
    ANTHROPIC_API_KEY: z.string().optional(),
    ANTHROPIC_MODELS: z.string().default('claude-sonnet-4-5,claude-haiku-4-5'),
    OLLAMA_BASE_URL: optionalUrl,
    /** The context window (num_ctx) Ollama serves its models with. */
    OLLAMA_CONTEXT_WINDOW: int(512, 10_000_000).optional(),
    MODELS_CONFIG: z.string().optional(),
    MODEL_PROBE_TIMEOUT_MS: int(50, 10_000).default(2000),
    MODEL_PROBE_TTL_S: int(1, 86_400).default(30),
    LLM_TIMEOUT_MS: int(1000, 3_600_000).default(120_000),
    LLM_MAX_RETRIES: int(0, 10).default(2),
    LLM_STALL_TIMEOUT_MS: int(1000, 3_600_000).default(120_000),
    CONTEXT_BUDGET_TOKENS: int(500, 2_000_000).default(12_000),
    SSE_PING_MS: int(100, 600_000).default(15_000),
    /** Longest one answer (turn) may take, whatever the model keeps streaming. */
    LLM_MAX_TURN_MS: int(1000, 86_400_000).default(300_000),
    LLM_MAX_TOOL_CALLS_PER_MESSAGE: int(1, 100).default(8),
    LLM_MAX_TOOL_CALLS_PER_TURN: int(1, 1000).default(16),
    LLM_MAX_MODEL_CALLS_PER_TURN: int(1, 1000).default(30),

    /** Per-user limits (per API process). */
    USER_MAX_CONCURRENT_QUERIES: int(1, 100_000).default(4),
    USER_MAX_CONCURRENT_STREAMS: int(1, 100_000).default(3),
    USER_MAX_DB_CONNECTIONS: int(1, 10_000).default(10),
    USER_MAX_SAVED_CONNECTIONS: int(1, 100_000).default(50),

    /** A connection's knowledge: how much of each kind it may keep (then 409 CONFLICT). Field lengths: KNOWLEDGE_FIELD_LIMITS. */
    KNOWLEDGE_MAX_GLOSSARY: int(1, 100_000).default(500),
    KNOWLEDGE_MAX_TABLE_NOTES: int(1, 100_000).default(2000),
    KNOWLEDGE_MAX_EXAMPLES: int(1, 100_000).default(10_000),
    KNOWLEDGE_MAX_LEARNINGS: int(1, 100_000).default(1000),
    /** Characters of instructions, glossary and learnings in a prompt (beside the schema's own budget, never taken from it). */
    KNOWLEDGE_PROMPT_BUDGET: int(200, 1_000_000).default(6000),
    /** Learned corrections in a prompt at most (the most confident first). */
    KNOWLEDGE_PROMPT_LEARNINGS: int(0, 1000).default(20),
    /** Example queries retrieved for the SQL writer per question, and the characters they may use. */
    KNOWLEDGE_EXAMPLES_K: int(0, 100).default(5),
    KNOWLEDGE_EXAMPLES_BUDGET: int(200, 1_000_000).default(4000),
    /** The largest knowledge file POST /knowledge/import accepts. */
    KNOWLEDGE_IMPORT_MAX_BYTES: int(1024, 256 * 1024 * 1024).default(16 * 1024 * 1024),
  })
  .superRefine((env, ctx) => {
    if (env.DATABASE_URL && !env.MASTER_ENCRYPTION_KEY) {
      ctx.addIssue({
        code: 'custom',
        path: ['MASTER_ENCRYPTION_KEY'],
        message: 'is required when DATABASE_URL is set (server mode); generate one with `openssl rand -hex 32`',
      });
    }
    const longest = statementTimeoutMax(env);
    const which = env.STATEMENT_TIMEOUT_MAX_MS === undefined ? 'STATEMENT_TIMEOUT_MS' : 'STATEMENT_TIMEOUT_MAX_MS';
    if (env.STATEMENT_TIMEOUT_MS > longest) {
      ctx.addIssue({ code: 'custom', path: ['STATEMENT_TIMEOUT_MAX_MS'], message: 'must not be below STATEMENT_TIMEOUT_MS' });
    }
    if (env.LLM_STALL_TIMEOUT_MS <= longest) {
      ctx.addIssue({ code: 'custom', path: ['LLM_STALL_TIMEOUT_MS'], message: `must exceed ${which} (a running query sends no events)` });
    }
    if (env.LLM_MAX_TURN_MS <= longest) {
      ctx.addIssue({ code: 'custom', path: ['LLM_MAX_TURN_MS'], message: `must exceed ${which} (an answer may run a query)` });
    }
    if (env.USER_MAX_DB_CONNECTIONS < env.POOL_MAX) {
      ctx.addIssue({ code: 'custom', path: ['USER_MAX_DB_CONNECTIONS'], message: 'must be at least POOL_MAX (one pool may use all of its connections)' });
    }
    if (env.RESULT_CELL_MAX_BYTES > env.RESULT_MAX_BYTES) {
      ctx.addIssue({ code: 'custom', path: ['RESULT_CELL_MAX_BYTES'], message: 'must not exceed RESULT_MAX_BYTES' });
    }
    for (const key of ['CONNECTION_ALLOW_HOSTS', 'CONNECTION_DENY_HOSTS'] as const) {
      try {
        parseHostRules(env[key]);
      } catch (error) {
        ctx.addIssue({ code: 'custom', path: [key], message: (error as Error).message });
      }
    }
    if (env.ROW_LIMIT > env.ROW_LIMIT_MAX) {
      ctx.addIssue({ code: 'custom', path: ['ROW_LIMIT'], message: 'must not exceed ROW_LIMIT_MAX' });
    }
  });

export type Env = z.infer<typeof envSchema>;

/** The longest statement timeout any connection may use. */
export function statementTimeoutMax(env: Pick<Env, 'STATEMENT_TIMEOUT_MS' | 'STATEMENT_TIMEOUT_MAX_MS'>): number {
  return env.STATEMENT_TIMEOUT_MAX_MS ?? env.STATEMENT_TIMEOUT_MS;
}

export interface AppConfig extends Env {
  /** Absolute DATA_DIR. */
  dataDir: string;
  /** Absolute SQLITE_ROOT (default: DATA_DIR/sqlite). */
  sqliteRoot: string;
  /** 'server' when DATABASE_URL is set, else 'embedded'. */
  mode: 'server' | 'embedded';
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Validates the environment; a bad value throws one ConfigError listing every bad variable. */
export function loadConfig(source: NodeJS.ProcessEnv = process.env): AppConfig {
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.') || '(env)'}: ${i.message}`));
  }
  const env = parsed.data;
  const dataDir = path.resolve(env.DATA_DIR);
  return {
    ...env,
    dataDir,
    sqliteRoot: path.resolve(env.SQLITE_ROOT ?? path.join(dataDir, 'sqlite')),
    mode: env.DATABASE_URL ? 'server' : 'embedded',
  };
}
