import { randomUUID } from 'node:crypto';
import { productStream } from '@licensestore/domain';
import type { ParkedEventsView } from '@licensestore/domain/audit';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type ApiWithReadModel, startApiWithReadModel } from './support/api-with-read-model.js';

const metadata = { actor: { type: 'admin', id: 'admin' }, correlationId: 'c', causationId: 'c' } as const;

describe('GET /api/audit/parked-events', () => {
  let store: ApiWithReadModel;
  let auditor: string;
  let admin: string;

  const parked = async (cookie: string) => {
    const response = await fetch(`${store.api.url}/api/audit/parked-events`, { headers: { cookie } });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    return (await response.json()) as ParkedEventsView;
  };

  beforeAll(async () => {
    store = await startApiWithReadModel();
    auditor = await store.api.sessionCookie({ kind: 'auditor', subjectId: randomUUID() });
    admin = await store.api.sessionCookie({ kind: 'admin', subjectId: randomUUID() });
  });
  afterAll(() => store?.stop());

  it('answers none on a log whose every event reads', async () => {
    expect(await parked(auditor)).toEqual({ total: 0, events: [] });
  });

  it('lists an event that does not read once the projectors parked it: where, what, why and who', async () => {
    const id = randomUUID();
    const { position } = await store.eventStore.append(
      productStream(id),
      [{ type: 'ProductDeleted', data: { productId: id, deletedAt: 'yesterday' }, metadata }],
      'no_stream',
    );
    const seen = await vi.waitFor(
      async () => {
        const view = await parked(auditor);
        expect(view.events[0]?.consumers).toContain('products');
        return view;
      },
      { timeout: 15_000, interval: 100 },
    );
    expect(seen.total).toBe(1);
    expect(seen.events).toEqual([
      {
        eventId: expect.any(String),
        position,
        streamId: productStream(id),
        type: 'ProductDeleted',
        reason: expect.stringContaining('data.deletedAt'),
        consumers: expect.arrayContaining(['products', 'dashboard']),
        firstSeenAt: expect.any(String),
      },
    ]);
    expect(await parked(admin)).toEqual(seen);
  });
});
