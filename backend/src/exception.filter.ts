import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { Response } from 'express';
import { AppError, type ErrorCode } from './common/app-error.js';
import { retryAfterOf } from './common/rate-limited.js';
import { isStorageOutage, storageUnavailable } from './storage/storage-outage.js';

const CODE_BY_STATUS: Record<number, ErrorCode> = {
  400: 'VALIDATION_FAILED',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  413: 'PAYLOAD_TOO_LARGE',
  429: 'RATE_LIMITED',
};

/** Maps anything thrown to `{error:{code,message}}`. Unknown errors are logged and answered generically. */
export function toAppError(exception: unknown): AppError {
  if (exception instanceof AppError) return exception;
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    const code = CODE_BY_STATUS[status];
    if (code) {
      const message = status === 404 ? 'No such route' : exception.message;
      return new AppError(code, message);
    }
  }
  // body-parser errors carry a status and a type rather than being HttpExceptions.
  const bodyError = exception as { status?: number; type?: string };
  if (bodyError?.type === 'entity.parse.failed') return new AppError('VALIDATION_FAILED', 'The request body is not valid JSON');
  if (bodyError?.type === 'entity.too.large') return new AppError('PAYLOAD_TOO_LARGE', 'The request body is too large');
  if (bodyError?.status && bodyError.status >= 400 && bodyError.status < 500 && CODE_BY_STATUS[bodyError.status]) {
    return new AppError(CODE_BY_STATUS[bodyError.status], String((exception as Error).message ?? 'Bad request'));
  }
  if (isStorageOutage(exception)) return storageUnavailable();
  return new AppError('INTERNAL', 'Something went wrong on our side. The error was logged.');
}

@Catch()
export class AppExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  catch(exception: unknown, host: ArgumentsHost): void {
    const response = host.switchToHttp().getResponse<Response>();
    const error = toAppError(exception);
    if (error.code === 'INTERNAL') this.logger.error(exception instanceof Error ? exception.stack : String(exception));
    if (error.code === 'STORAGE_UNAVAILABLE') {
      this.logger.warn(`storage unavailable: ${(exception as Error)?.message ?? String(exception)}`);
      if (!response.headersSent) response.setHeader('Retry-After', '5');
    }
    // A streaming answer already sent its headers: it reports errors as events itself, so only end it.
    if (response.headersSent) {
      if (!response.writableEnded) response.end();
      return;
    }
    // RATE_LIMITED says when to retry, in the body (details.retry_after_s) and as the standard header.
    const retryAfter = error.code === 'RATE_LIMITED' ? retryAfterOf(error) : undefined;
    if (retryAfter !== undefined) response.setHeader('Retry-After', String(retryAfter));
    response.status(error.status).json(error.toBody());
  }
}
