import { AppError, NotFoundError, TooManyRequestsError } from '@licensestore/shared';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { Logger } from '../logger.js';

/** Errors body-parser raises carry `type`; these are the client's fault and say so. */
interface HttpParserError {
  type?: string;
  status?: number;
  expose?: boolean;
  message: string;
}

const clientMessages: Record<string, string> = {
  'entity.parse.failed': 'Malformed JSON body',
  'entity.too.large': 'Request body too large',
  'encoding.unsupported': 'Unsupported content encoding',
  'charset.unsupported': 'Unsupported charset',
  'request.aborted': 'Request aborted',
};

const asParserError = (error: unknown): HttpParserError | null => {
  if (typeof error !== 'object' || error === null) return null;
  const { status, expose } = error as HttpParserError;
  return typeof status === 'number' && status >= 400 && status < 500 && expose === true
    ? (error as HttpParserError)
    : null;
};

export const notFound: RequestHandler = (_req, _res, next) => next(new NotFoundError('Not found'));

/** Renders every failure as `{ "error": "message" }`; server faults are logged and never described to the client. */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (error, req, res, next) => {
    if (res.headersSent) return next(error);
    if (error instanceof AppError) {
      if (error instanceof TooManyRequestsError)
        res.setHeader('Retry-After', String(error.retryAfterSeconds));
      res.status(error.status).json({ error: error.message });
      return;
    }
    const parserError = asParserError(error);
    if (parserError) {
      const status = parserError.status as number;
      res.status(status).json({ error: clientMessages[parserError.type ?? ''] ?? parserError.message });
      return;
    }
    logger.error(
      { err: error, method: req.method, path: req.path, requestId: req.requestId },
      'request failed',
    );
    res.status(500).json({ error: 'Internal server error' });
  };
}
