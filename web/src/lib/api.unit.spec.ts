import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiRequest, createQueryClient, getJson } from './api';

const fetchMock = vi.fn<typeof fetch>();
vi.stubGlobal('fetch', fetchMock);

const answer = (status: number, body = '', statusText = '') =>
  fetchMock.mockResolvedValueOnce(new Response(status === 204 ? null : body, { status, statusText }));

afterEach(() => fetchMock.mockReset());

describe('apiRequest', () => {
  it('sends JSON with a content type when there is a body, and includes credentials', async () => {
    answer(200, '{}');
    await apiRequest('POST', '/api/products', { name: 'Office' });
    expect(fetchMock).toHaveBeenCalledWith('/api/products', {
      method: 'POST',
      credentials: 'include',
      headers: { 'Content-Type': 'application/json' },
      body: '{"name":"Office"}',
    });
  });

  it('sends no content type without a body', async () => {
    answer(204);
    await apiRequest('DELETE', '/api/products/1');
    expect(fetchMock).toHaveBeenCalledWith('/api/products/1', {
      method: 'DELETE',
      credentials: 'include',
      headers: {},
      body: undefined,
    });
  });

  it('turns a non-2xx answer into "<status>: <body text>"', async () => {
    answer(409, '{"error":"stream changed"}', 'Conflict');
    await expect(apiRequest('PATCH', '/api/products/1', {})).rejects.toThrow(
      '409: {"error":"stream changed"}',
    );
  });

  it('uses the status text when the body is empty', async () => {
    answer(500, '', 'Internal Server Error');
    await expect(apiRequest('POST', '/api/admin/logout')).rejects.toThrow('500: Internal Server Error');
  });
});

describe('the default query function', () => {
  const query = (queryKey: unknown[]) => createQueryClient().fetchQuery({ queryKey });

  it('GETs the query key joined by slashes, with credentials, and returns parsed JSON', async () => {
    answer(200, '{"id":"42"}');
    await expect(query(['/api/products', '42'])).resolves.toEqual({ id: '42' });
    expect(fetchMock).toHaveBeenCalledWith('/api/products/42', { credentials: 'include' });
  });

  it('yields null for 401', async () => {
    answer(401, 'Unauthorized');
    await expect(query(['/api/auth/user'])).resolves.toBeNull();
  });

  it('fails once, without retrying, on other errors', async () => {
    answer(503, 'down');
    await expect(query(['/api/testimonials'])).rejects.toThrow('503: down');
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('never considers cached data stale and does not refetch on focus', () => {
    const defaults = createQueryClient().getDefaultOptions().queries;
    expect(defaults).toMatchObject({
      retry: false,
      refetchOnWindowFocus: false,
      refetchInterval: false,
      staleTime: Number.POSITIVE_INFINITY,
    });
  });
});

describe('getJson', () => {
  it('throws on 401 when asked to', async () => {
    answer(401, 'Unauthorized');
    await expect(getJson('/api/orders', { on401: 'throw' })).rejects.toThrow('401: Unauthorized');
  });
});
