import { QueryClient, type QueryFunction } from '@tanstack/react-query';
import { BACK_OFFICE_READ_MODELS } from './live-queries';

/**
 * The store's error bodies: `{ "error": "…" }`, with PayPal's issue code when a payment was refused, or a form's
 * refusals by field (`fields`).
 */
interface ErrorBody {
  error?: unknown;
  message?: unknown;
  issue?: unknown;
  fields?: unknown;
}

/** The body's sentences by field, keeping only text ones. */
function fieldSentences(fields: unknown): Readonly<Record<string, string>> {
  if (typeof fields !== 'object' || fields === null) return {};
  return Object.fromEntries(
    Object.entries(fields).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  );
}

function parseErrorBody(text: string): ErrorBody {
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null ? (parsed as ErrorBody) : {};
  } catch {
    // Not the store's JSON (a proxy's error page, plain text): its text is all there is.
    return {};
  }
}

/** Plain words for a failure without the server's own sentence, by status. */
const STATUS_SENTENCES: ReadonlyArray<[(status: number) => boolean, string]> = [
  [(status) => status === 401 || status === 403, 'You are not allowed to do this. Sign in again and retry.'],
  [(status) => status === 404, 'It could not be found: it may have been removed.'],
  [(status) => status === 429, 'Too many requests. Wait a moment and try again.'],
  [(status) => status >= 500, 'The store could not answer. Try again in a moment.'],
];

function statusSentence(status: number): string {
  const found = STATUS_SENTENCES.find(([matches]) => matches(status));
  return found ? found[1] : 'The request was refused. Check what you entered and try again.';
}

/**
 * A non-2xx answer. Its message is what a person is told: the server's own sentence when its JSON body has one,
 * otherwise plain words for the status, never the status code and the raw body, so any screen may show it as it
 * is. Code that acts on a failure reads `status` (and `body` for the raw text).
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  /** The server's sentence for a person, when its JSON body has one (`error`, or `message`). */
  readonly reason: string | undefined;
  /** A code for programs when the body carries one (PayPal's issue of a refused payment). */
  readonly issue: string | undefined;
  /** The refusal of each field of a form, by the field's name, when the body names them; shown under the field. */
  readonly fields: Readonly<Record<string, string>>;

  constructor(
    readonly status: number,
    /** The body's text, or the status text when the body is empty. */
    readonly body: string,
  ) {
    const parsed = parseErrorBody(body);
    const sentence = [parsed.error, parsed.message].find((each) => typeof each === 'string' && each !== '');
    super((sentence as string | undefined) ?? statusSentence(status));
    this.reason = sentence as string | undefined;
    this.issue = typeof parsed.issue === 'string' ? parsed.issue : undefined;
    this.fields = fieldSentences(parsed.fields);
  }
}

/**
 * What a person is told when a call failed: an ApiError's message (the server's sentence or plain words), a
 * connection failure in plain words; errors of our own making carry their sentence as message.
 */
export function errorSentence(error: Error): string {
  // fetch rejects with a TypeError when no answer came at all.
  if (error instanceof TypeError)
    return 'The store could not be reached. Check your connection and try again.';
  return error.message;
}

/** The store answered 404: what was asked for does not exist (an unknown or malformed id). */
export const isNotFound = (error: unknown): boolean => error instanceof ApiError && error.status === 404;

/** Any non-2xx answer becomes an ApiError. */
async function throwIfNotOk(response: Response): Promise<void> {
  if (response.ok) return;
  throw new ApiError(response.status, (await response.text()) || response.statusText);
}

/**
 * The store refused a write made on a version that is no longer the current one (412 to its If-Match): someone
 * else changed the thing since this page loaded it.
 */
export const isStale = (error: unknown): boolean => error instanceof ApiError && error.status === 412;

/**
 * Every call carries the session cookie; a JSON content type is sent only with a body. `ifMatch` is the ETag the
 * page loaded the thing with: the store then refuses the write if it changed since (see `isStale`).
 */
export async function apiRequest(
  method: string,
  url: string,
  body?: unknown,
  { ifMatch }: { ifMatch?: string | null } = {},
): Promise<Response> {
  const response = await fetch(url, {
    method,
    credentials: 'include',
    headers: {
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      ...(ifMatch ? { 'If-Match': ifMatch } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  await throwIfNotOk(response);
  return response;
}

/**
 * The JSON body of a 2xx answer, typed as the contract's view of it. An answer whose wrong shape would cost money or
 * keys is parsed with the contract's schema instead.
 */
export const answerOf = async <View>(response: Response): Promise<View> => (await response.json()) as View;

export type On401 = 'returnNull' | 'throw';

/** GET a JSON resource. With `on401: 'returnNull'`, "not signed in" is an answer (null), not a failure. */
export async function getJson<T>(url: string, options: { on401: 'throw' }): Promise<T>;
export async function getJson<T>(url: string, options?: { on401?: On401 }): Promise<T | null>;
export async function getJson<T>(
  url: string,
  { on401 = 'returnNull' }: { on401?: On401 } = {},
): Promise<T | null> {
  const response = await fetch(url, { credentials: 'include' });
  if (on401 === 'returnNull' && response.status === 401) {
    // Read nothing, but release the body: an unread one keeps the request open in the browser.
    await response.body?.cancel();
    return null;
  }
  await throwIfNotOk(response);
  return (await response.json()) as T;
}

/** A resource with the ETag it was answered with: what a write on it sends back as If-Match. */
export interface Tagged<T> {
  value: T;
  etag: string | null;
}

/** GET a JSON resource with its ETag; any non-2xx (a 401 too) is a failure. */
export async function getTaggedJson<T>(url: string): Promise<Tagged<T>> {
  const response = await fetch(url, { credentials: 'include' });
  await throwIfNotOk(response);
  return { value: (await response.json()) as T, etag: response.headers.get('ETag') };
}

/** The default read: GET on the query key's parts joined by '/' (['/api/products', id] → /api/products/{id}). */
export const getQueryFn =
  <T>(options: { on401: On401 }): QueryFunction<T | null> =>
  ({ queryKey }) =>
    getJson<T>(queryKey.join('/'), options);

/**
 * How long each kind of answer counts as fresh, by query-key prefix. The storefront's answers never go stale (the
 * catalogue changes seldom; a reload reads it again). The back office's read models are refreshed by its live
 * stream when they move; their staleness bounds how old a screen can be when that stream cannot connect.
 */
export const BACK_OFFICE_STALE_MS = 30_000;

export function createQueryClient(): QueryClient {
  const queryClient = new QueryClient({
    defaultOptions: {
      queries: {
        queryFn: getQueryFn({ on401: 'returnNull' }),
        retry: false,
        refetchOnWindowFocus: false,
        refetchInterval: false,
        staleTime: Number.POSITIVE_INFINITY,
      },
      mutations: { retry: false },
    },
  });
  for (const prefix of BACK_OFFICE_READ_MODELS) {
    queryClient.setQueryDefaults([prefix], { staleTime: BACK_OFFICE_STALE_MS });
  }
  return queryClient;
}

export const queryClient = createQueryClient();
