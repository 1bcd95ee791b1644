import { QueryClient, type QueryFunction } from '@tanstack/react-query';

/** Any non-2xx answer becomes `Error("<status>: <body text, or the status text when the body is empty>")`. */
async function throwIfNotOk(response: Response): Promise<void> {
  if (response.ok) return;
  const text = (await response.text()) || response.statusText;
  throw new Error(`${response.status}: ${text}`);
}

/** Every call carries the session cookie; a JSON content type is sent only with a body. */
export async function apiRequest(method: string, url: string, body?: unknown): Promise<Response> {
  const response = await fetch(url, {
    method,
    credentials: 'include',
    headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  await throwIfNotOk(response);
  return response;
}

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

/** The default read: GET on the query key's parts joined by '/' (['/api/products', id] → /api/products/{id}). */
export const getQueryFn =
  <T>(options: { on401: On401 }): QueryFunction<T | null> =>
  ({ queryKey }) =>
    getJson<T>(queryKey.join('/'), options);

export function createQueryClient(): QueryClient {
  return new QueryClient({
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
}

export const queryClient = createQueryClient();
