import fs from 'node:fs';
import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import type { NextFunction, Request, Response } from 'express';
import { Logger } from 'nestjs-pino';
import { AppModule } from './app.module.js';
import { toAppError } from './exception.filter.js';
import { documentErrors, documentResponses } from './common/openapi.js';
import { securityHeaders } from './common/security-headers.js';
import type { AppConfig } from './config/env.schema.js';

/** The built web app: FRONTEND_DIST, or frontend/dist of this repository. */
export function frontendDist(config: AppConfig): string | null {
  if (config.FRONTEND_DIST) return path.resolve(config.FRONTEND_DIST);
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i++) {
    const candidate = path.join(dir, 'frontend', 'dist');
    if (fs.existsSync(path.join(candidate, 'index.html'))) return candidate;
    dir = path.dirname(dir);
  }
  return null;
}

/**
 * LangChain hands callbacks it does not await to ONE process-wide queue of concurrency 1; LangGraph's
 * token stream handler is one of them, so with many concurrent answers every token waited in that
 * queue. A server runs them inline instead (an explicit setting still wins).
 */
export function runLangChainCallbacksInline(): void {
  process.env.LANGCHAIN_CALLBACKS_BACKGROUND ??= 'false';
}

/** Builds the whole app (used by main.ts and by the end-to-end tests, which listen on port 0). */
export async function createApp(config: AppConfig): Promise<NestExpressApplication> {
  runLangChainCallbacksInline();
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config), { bufferLogs: true, bodyParser: false });
  app.useLogger(app.get(Logger));
  // First, so every answer carries them: the API, the docs, the web app and its assets, and errors.
  app.disable('x-powered-by');
  app.use(...securityHeaders({ trustProxy: config.TRUST_PROXY }));
  // X-Forwarded-For/-Proto/-Host are believed only from the one reverse proxy TRUST_PROXY says is in front.
  app.set('trust proxy', config.TRUST_PROXY ? 1 : false);
  // A knowledge file may be larger than any other body; the general limit stays 1 MB (a parsed body is skipped by the next parser).
  app.useBodyParser('json', { limit: config.KNOWLEDGE_IMPORT_MAX_BYTES, type: isKnowledgeImport });
  app.useBodyParser('json', { limit: '1mb' });
  // Body-parser errors (bad JSON, too large) happen before Nest's filter sees the request.
  app.use((error: unknown, _req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) return next(error);
    const appError = toAppError(error);
    res.status(appError.status).json(appError.toBody());
  });
  app.setGlobalPrefix('api');
  if (config.CORS_ORIGIN) app.enableCors({ origin: config.CORS_ORIGIN.split(',').map((s) => s.trim()) });

  const document = documentResponses(documentErrors(
    SwaggerModule.createDocument(
      app,
      new DocumentBuilder()
        .setTitle('Aigis API')
        .setDescription('Chat with your own database. Errors are `{error:{code,message}}`. Streams are text/event-stream.')
        .setVersion('0.1.0')
        .addBearerAuth()
        .build(),
    ),
  ));
  SwaggerModule.setup('api/docs', app, document, { jsonDocumentUrl: 'api/docs/openapi.json' });

  const dist = frontendDist(config);
  if (dist) {
    app.useStaticAssets(dist, { index: false, maxAge: '1h', setHeaders: immutableAssets });
    const indexHtml = path.join(dist, 'index.html');
    // Client-side routes (/threads/…) get the app shell; /api stays JSON.
    app.use((req: Request, res: Response, next: NextFunction) => {
      if (req.method !== 'GET' || req.path.startsWith('/api') || !req.accepts('html')) return next();
      res.sendFile(indexHtml);
    });
  }
  app.enableShutdownHooks();
  return app;
}

const KNOWLEDGE_IMPORT_PATH = /^\/api\/connections\/[^/?#]+\/knowledge\/import(?:\?|$)/;

function isKnowledgeImport(req: IncomingMessage): boolean {
  return req.method === 'POST' && KNOWLEDGE_IMPORT_PATH.test(req.url ?? '') && /^application\/json\b/i.test(req.headers['content-type'] ?? '');
}

function immutableAssets(res: Response, file: string): void {
  if (file.includes(`${path.sep}assets${path.sep}`)) res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
}
