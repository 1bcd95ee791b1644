import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  ApiError,
  apiRequest,
  BACK_OFFICE_STALE_MS,
  createQueryClient,
  errorSentence,
  getJson,
  isNotFound,
} from './api';

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

  it("turns a non-2xx answer into an ApiError whose message is the server's sentence alone", async () => {
    answer(409, '{"error":"stream changed"}', 'Conflict');
    const error = await apiRequest('PATCH', '/api/products/1', {}).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      message: 'stream changed',
      status: 409,
      body: '{"error":"stream changed"}',
      reason: 'stream changed',
      issue: undefined,
    });
  });

  it('says what happened in plain words when the body has no sentence, keeping the status text as body', async () => {
    answer(500, '', 'Internal Server Error');
    await expect(apiRequest('POST', '/api/admin/logout')).rejects.toMatchObject({
      message: 'The store could not answer. Try again in a moment.',
      body: 'Internal Server Error',
      status: 500,
      reason: undefined,
    });
  });
});

describe('ApiError', () => {
  it("reads the sentence from the body's error, or its message", () => {
    expect(new ApiError(400, '{"message":"Name is required"}').reason).toBe('Name is required');
    expect(new ApiError(400, '{"error":"Bad name","message":"ignored"}').reason).toBe('Bad name');
  });

  it('carries the issue code of a payment PayPal refused', () => {
    const error = new ApiError(422, '{"error":"The card was declined","issue":"INSTRUMENT_DECLINED"}');
    expect({ reason: error.reason, issue: error.issue }).toEqual({
      reason: 'The card was declined',
      issue: 'INSTRUMENT_DECLINED',
    });
  });

  it("reads a form's refusals by field, keeping only sentences", () => {
    const error = new ApiError(
      400,
      '{"error":"The password is too easy to guess.","fields":{"password":"The password is too easy to guess.","role":3}}',
    );
    expect(error.fields).toEqual({ password: 'The password is too easy to guess.' });
    expect(new ApiError(400, '{"error":"Bad"}').fields).toEqual({});
  });

  it('has no sentence when the body is no JSON object, or names none', () => {
    for (const body of ['<html>Bad gateway</html>', '"text"', 'null', '{"error":""}', '{"error":42}']) {
      expect(new ApiError(502, body).reason, body).toBeUndefined();
    }
  });

  it('tells a 404 from other failures', () => {
    expect(isNotFound(new ApiError(404, '{"error":"Order not found"}'))).toBe(true);
    expect(isNotFound(new ApiError(403, '{"error":"Forbidden"}'))).toBe(false);
    expect(isNotFound(new Error('404: looks like one'))).toBe(false);
    expect(isNotFound(null)).toBe(false);
  });
});

describe('a refusal shown as it is', () => {
  it('never carries a status code or raw JSON in its message, whatever the answer', () => {
    const refunded = '{"error":"Order #461143DA is refunded: its keys no longer work."}';
    const answers: Array<[number, string]> = [
      [409, refunded],
      [409, '{"conflict":true}'],
      [400, '[1,2]'],
      [422, '<html>nope</html>'],
      [500, ''],
    ];
    for (const [status, body] of answers) {
      const { message } = new ApiError(status, body);
      expect(message, body).not.toMatch(/^\d{3}:|[{}[\]<>]/);
      expect(message.length, body).toBeGreaterThan(0);
    }
    expect(new ApiError(409, refunded).message).toBe('Order #461143DA is refunded: its keys no longer work.');
  });
});

describe('errorSentence', () => {
  it("gives the server's own sentence when there is one", () => {
    expect(errorSentence(new ApiError(400, '{"error":"order must be an order id"}'))).toBe(
      'order must be an order id',
    );
  });

  it('says what happened in plain words otherwise, never a status and a raw body', () => {
    expect(errorSentence(new ApiError(503, 'catalogue resting'))).toBe(
      'The store could not answer. Try again in a moment.',
    );
    expect(errorSentence(new ApiError(400, '<html>Bad request</html>'))).toBe(
      'The request was refused. Check what you entered and try again.',
    );
    expect(errorSentence(new ApiError(429, ''))).toBe('Too many requests. Wait a moment and try again.');
    expect(errorSentence(new TypeError('Failed to fetch'))).toBe(
      'The store could not be reached. Check your connection and try again.',
    );
    expect(errorSentence(new Error('Invalid credentials'))).toBe('Invalid credentials');
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
    await expect(query(['/api/testimonials'])).rejects.toThrow(
      'The store could not answer. Try again in a moment.',
    );
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it("never considers the storefront's data stale and does not refetch on focus", () => {
    const client = createQueryClient();
    expect(client.getDefaultOptions().queries).toMatchObject({
      retry: false,
      refetchOnWindowFocus: false,
      refetchInterval: false,
      staleTime: Number.POSITIVE_INFINITY,
    });
    for (const key of [['/api/products'], ['/api/products', '42'], ['/api/testimonials']]) {
      expect(client.defaultQueryOptions({ queryKey: key }).staleTime, key.join('/')).toBe(
        Number.POSITIVE_INFINITY,
      );
    }
  });

  it("lets the back office's read models go stale, so a screen is read again when its live stream is down", () => {
    const client = createQueryClient();
    const keys = [
      ['/api/admin/dashboard'],
      ['/api/orders'],
      ['/api/orders', '42', 'items'],
      ['/api/admin/orders', { status: 'paid' }],
      ['/api/customers'],
      ['/api/license-keys', 'stock'],
    ];
    for (const key of keys) {
      expect(client.defaultQueryOptions({ queryKey: key }).staleTime, JSON.stringify(key)).toBe(
        BACK_OFFICE_STALE_MS,
      );
    }
  });
});

describe('getJson', () => {
  it('throws on 401 when asked to', async () => {
    answer(401, 'Unauthorized');
    await expect(getJson('/api/orders', { on401: 'throw' })).rejects.toMatchObject({
      message: 'You are not allowed to do this. Sign in again and retry.',
      status: 401,
    });
  });
});
