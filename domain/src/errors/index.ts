/** An error the caller can act on; `status` is the HTTP status the API answers with. */
export class AppError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class ValidationError extends AppError {
  constructor(message: string) {
    super(400, message);
  }
}

export class UnauthenticatedError extends AppError {
  constructor(message = 'Not signed in') {
    super(401, message);
  }
}

export class ForbiddenError extends AppError {
  constructor(message = 'Forbidden') {
    super(403, message);
  }
}

export class NotFoundError extends AppError {
  constructor(message: string) {
    super(404, message);
  }
}

/** The command does not fit the aggregate's current state. */
export class IllegalStateError extends AppError {
  constructor(message: string) {
    super(409, message);
  }
}

/** The caller decided on a version of the resource that is no longer the current one (a stale If-Match). */
export class PreconditionFailedError extends AppError {
  constructor(message: string) {
    super(412, message);
  }
}

export class TooManyRequestsError extends AppError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(429, message);
  }
}
