import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { ConfigError } from '../config/env.schema.js';

const modelEntrySchema = z.strictObject({
  name: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .regex(/^[^\s,]+$/, 'must not contain spaces or commas'),
  base_url: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL of the OpenAI-compatible API, e.g. http://host:8000/v1' }),
  // The NAME of the variable, so keys stay in the environment and never in this file.
  api_key_env: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be the NAME of an environment variable holding the key (e.g. "GROQ_API_KEY"), not the key')
    .optional(),
  model: z.string().trim().min(1),
  aliases: z.array(z.string().trim().min(1).regex(/^[^\s,]+$/, 'must not contain spaces or commas')).default([]),
  capabilities: z
    .strictObject({
      tool_calling: z.boolean().default(true),
      context_window: z.number().int().positive().nullable().default(null),
    })
    .default({ tool_calling: true, context_window: null }),
});

/** The MODELS_CONFIG file: `{"models": [entry, …]}` (a bare array of entries is accepted too). */
export const modelsConfigSchema = z.preprocess(
  (value) => (Array.isArray(value) ? { models: value } : value),
  z
    .strictObject({ models: z.array(modelEntrySchema) })
    .superRefine((file, ctx) => {
      const owners = new Map<string, string>();
      file.models.forEach((entry, i) => {
        for (const key of [entry.name, ...entry.aliases]) {
          const owner = owners.get(key.toLowerCase());
          if (owner !== undefined) ctx.addIssue({ code: 'custom', path: ['models', i], message: `"${key}" is already used by "${owner}"` });
          else owners.set(key.toLowerCase(), entry.name);
        }
      });
    }),
);

export type ModelsConfigEntry = z.infer<typeof modelEntrySchema>;

/** Reads and validates the MODELS_CONFIG file; any problem is a ConfigError naming the file, so the boot fails clearly. */
export function loadModelsConfig(file: string | undefined): ModelsConfigEntry[] {
  if (!file) return [];
  const where = `MODELS_CONFIG (${path.resolve(file)})`;
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError([`${where}: cannot read the file (${(error as NodeJS.ErrnoException).code ?? String(error)})`]);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ConfigError([`${where}: not valid JSON (${(error as Error).message})`]);
  }
  const parsed = modelsConfigSchema.safeParse(json);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${where} ${formatPath(i.path)}: ${i.message}`));
  }
  return parsed.data.models;
}

function formatPath(parts: PropertyKey[]): string {
  return parts.map((p, i) => (typeof p === 'number' ? `[${p}]` : `${i === 0 ? '' : '.'}${String(p)}`)).join('') || '(file)';
}
