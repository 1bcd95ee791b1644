import { STATUS_CODES } from 'node:http';
import { AppError, NotFoundError, TooManyRequestsError } from '@licensestore/domain';
import type { Logger } from '@licensestore/platform/logging';
import type { ErrorRequestHandler, RequestHandler } from 'express';

/** Errors from express's own middleware (body-parser, serve-static) carry an HTTP status and sometimes a `type`. */
interface HttpError {
  status: number;
  type?: string;
  expose?: boolean;
  message: string;
  /** The body parser's size limit in bytes, on `entity.too.large`. */
  limit?: number;
  /** zlib's code (`Z_DATA_ERROR`, …) when a compressed body does not inflate. */
  code?: string;
}

const clientMessages: Record<string, string> = {
  'entity.parse.failed': 'Malformed JSON body',
  'entity.too.large': 'Request body too large',
  'encoding.unsupported': 'Unsupported content encoding',
  'charset.unsupported': 'Unsupported charset',
  'request.size.invalid': 'Request body does not match its Content-Length',
  'request.aborted': 'Request body ended early',
  'encoding.corrupt': 'Request body does not match its Content-Encoding',
};

/** A body that does not inflate has no type, only zlib's code; its words ("incorrect header check") mean nothing here. */
const typeOf = (error: HttpError) => error.type ?? (error.code?.startsWith('Z_') ? 'encoding.corrupt' : '');

const asClientError = (error: unknown): HttpError | null => {
  const status = (error as Partial<HttpError> | null)?.status;
  return typeof status === 'number' && status >= 400 && status < 500 ? (error as HttpError) : null;
};

const KB = 1024;
const MB = 1024 * KB;

const describeSize = (bytes: number) =>
  bytes % MB === 0 ? `${bytes / MB} MB` : bytes % KB === 0 ? `${bytes / KB} kB` : `${bytes} bytes`;

/** The sender of an oversized body learns the limit, so it can split or shrink what it sends. */
const describeClientError = (error: HttpError) => {
  const message =
    clientMessages[typeOf(error)] ??
    (error.expose ? error.message : (STATUS_CODES[error.status] ?? 'Bad Request'));
  return error.type === 'entity.too.large' && typeof error.limit === 'number'
    ? `${message}: at most ${describeSize(error.limit)}`
    : message;
};

export const notFound: RequestHandler = (_req, _res, next) => next(new NotFoundError('Not found'));

/** Renders every failure as `{ "error": "message" }`; server faults are logged and never described to the client. */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (error, req, res, next) => {
    if (res.headersSent) return next(error);
    if (error instanceof AppError) {
      if (error instanceof TooManyRequestsError) {
        res.setHeader('Retry-After', String(error.retryAfterSeconds));
      }
      res.status(error.status).json({ error: error.message });
      return;
    }
    const clientError = asClientError(error);
    if (clientError) {
      res.status(clientError.status).json({ error: describeClientError(clientError) });
      return;
    }
    logger.error(
      { err: error, method: req.method, path: req.path, requestId: req.requestId },
      'request failed',
    );
    res.status(500).json({ error: 'Internal server error' });
  };
}
