import { randomUUID } from 'node:crypto';
import { describe, it } from 'vitest';
import { IllegalStateError, NotFoundError } from '../errors/index.js';
import { givenHistory } from '../testing/given.js';
import type { LicenseKeyEvent } from './events.js';
import { inventoryDecider } from './index.js';
import { DuplicateLicenseKeyError, type LicenseKeyCommand, type NewLicenseKey } from './inventory.js';

const productId = randomUUID();
const now = '2026-01-05T10:00:00.000Z';
const threshold = 2;
const sealed = (n: number) => `v1.0badc0de.aXY${n}.Y3Q${n}.dGFn`;
const newKey = (n: number): NewLicenseKey => ({
  keyId: randomUUID(),
  key: sealed(n),
  fingerprint: n.toString(16).padStart(64, '0'),
});
const added = (key: NewLicenseKey): LicenseKeyEvent => ({
  type: 'LicenceKeyAdded',
  data: { productId, ...key, addedAt: now },
});
const requested = (orderId: string, lineId: string, quantity: number): LicenseKeyEvent => ({
  type: 'LicenceKeysRequested',
  data: { productId, orderId, lineId, quantity, requestedAt: now },
});
const assigned = (orderId: string, lineId: string, ...keys: NewLicenseKey[]): LicenseKeyEvent => ({
  type: 'LicenceKeysAssigned',
  data: { productId, orderId, lineId, keys: keys.map(({ keyId, key }) => ({ keyId, key })), assignedAt: now },
});
const stockLow = (available: number): LicenseKeyEvent => ({
  type: 'LicenceKeyStockLow',
  data: { productId, available, threshold, detectedAt: now },
});
const request = (orderId: string, lineId: string, quantity: number): LicenseKeyCommand => ({
  type: 'RequestLicenseKeys',
  productId,
  orderId,
  lineId,
  quantity,
  lowStockThreshold: threshold,
  now,
});
const add = (...keys: NewLicenseKey[]): LicenseKeyCommand => ({
  type: 'AddLicenseKeys',
  productId,
  keys,
  lowStockThreshold: threshold,
  now,
});

const given = givenHistory(inventoryDecider);

describe('License-key inventory', () => {
  const [k1, k2, k3, k4] = [newKey(1), newKey(2), newKey(3), newKey(4)] as [
    NewLicenseKey,
    NewLicenseKey,
    NewLicenseKey,
    NewLicenseKey,
  ];
  const order = randomUUID();
  const other = randomUUID();

  describe('when keys are available', () => {
    it('assigns one key per unit, oldest key first', () => {
      given(added(k1), added(k2), added(k3), added(k4))
        .when(request(order, 'L1', 2))
        .thenEmits(requested(order, 'L1', 2), assigned(order, 'L1', k1, k2));
    });

    it('skips keys taken or removed meanwhile, and puts a key given back behind the others', () => {
      const third = randomUUID();
      given(
        added(k1),
        added(k2),
        added(k3),
        added(k4),
        { type: 'LicenceKeyRemoved', data: { productId, keyId: k2.keyId, removedAt: now } },
        requested(order, 'L1', 1),
        assigned(order, 'L1', k1),
        {
          type: 'LicenceKeyReturned',
          data: { productId, keyId: k1.keyId, orderId: order, lineId: 'L1', returnedAt: now },
        },
        requested(other, 'L1', 1),
        assigned(other, 'L1', k3),
      )
        .when(request(third, 'L1', 2))
        .thenEmits(requested(third, 'L1', 2), assigned(third, 'L1', k4, k1), stockLow(0));
    });

    it('raises the low-stock alert once when the assignment leaves fewer than the threshold', () => {
      given(added(k1), added(k2), added(k3))
        .when(request(order, 'L1', 2))
        .thenEmits(requested(order, 'L1', 2), assigned(order, 'L1', k1, k2), stockLow(1));
      given(
        added(k1),
        added(k2),
        added(k3),
        requested(order, 'L1', 2),
        assigned(order, 'L1', k1, k2),
        stockLow(1),
      )
        .when(request(other, 'L1', 1))
        .thenEmits(requested(other, 'L1', 1), assigned(other, 'L1', k3));
    });

    it('asks nothing again for a line that already asked (a retried job)', () => {
      given(added(k1), requested(order, 'L1', 1), assigned(order, 'L1', k1))
        .when(request(order, 'L1', 1))
        .thenEmitsNothing();
    });
  });

  describe('when keys run out', () => {
    it('gives what it has and keeps the line waiting for the rest', () => {
      given(added(k1), added(k2), added(k3))
        .when(request(order, 'L1', 4))
        .thenEmits(requested(order, 'L1', 4), assigned(order, 'L1', k1, k2, k3), stockLow(0));
    });

    it('serves waiting lines oldest first when keys are added (and says so if that empties the stock again)', () => {
      given(requested(order, 'L1', 2), stockLow(0), requested(other, 'L1', 1))
        .when(add(k1, k2, k3))
        .thenEmits(
          added(k1),
          added(k2),
          added(k3),
          assigned(order, 'L1', k1, k2),
          assigned(other, 'L1', k3),
          stockLow(0),
        );
    });

    it('serves a partly served line before newer ones', () => {
      given(
        added(k1),
        requested(order, 'L1', 2),
        assigned(order, 'L1', k1),
        stockLow(0),
        requested(other, 'L1', 1),
      )
        .when(add(k2))
        .thenEmits(added(k2), assigned(order, 'L1', k2));
    });

    it('re-arms the alert once stock is back at the threshold', () => {
      given(stockLow(0), added(k1), added(k2), requested(order, 'L1', 1), assigned(order, 'L1', k1))
        .when(request(other, 'L1', 1))
        .thenEmits(requested(other, 'L1', 1), assigned(other, 'L1', k2), stockLow(0));
    });
  });

  describe('adding keys', () => {
    it('refuses a key already in the inventory, or twice in one batch', () => {
      given(added(k1))
        .when(add(k2, { ...k3, fingerprint: k1.fingerprint }))
        .thenFails(DuplicateLicenseKeyError, 'already in the inventory');
      given()
        .when(add(k2, { ...k3, fingerprint: k2.fingerprint }))
        .thenFails(DuplicateLicenseKeyError, 'already in the inventory');
    });

    it('accepts again a key that was removed', () => {
      given(added(k1), added(k2), added(k3), {
        type: 'LicenceKeyRemoved',
        data: { productId, keyId: k1.keyId, removedAt: now },
      })
        .when(add({ ...k4, fingerprint: k1.fingerprint }))
        .thenEmits(added({ ...k4, fingerprint: k1.fingerprint }));
    });
  });

  describe('when an order gives keys back', () => {
    const release = (
      keys: Array<{ keyId: string; leftStore: boolean }>,
      wanted: number,
      orderId = order,
    ): LicenseKeyCommand => ({
      type: 'ReleaseLicenseKeys',
      productId,
      orderId,
      lineId: 'L1',
      keys,
      wanted,
      lowStockThreshold: 0,
      now,
    });
    const revoked = (key: NewLicenseKey): LicenseKeyEvent => ({
      type: 'LicenceKeyRevoked',
      data: { productId, keyId: key.keyId, orderId: order, lineId: 'L1', revokedAt: now },
    });
    const returned = (key: NewLicenseKey): LicenseKeyEvent => ({
      type: 'LicenceKeyReturned',
      data: { productId, keyId: key.keyId, orderId: order, lineId: 'L1', returnedAt: now },
    });
    const withdrawn = (orderId: string, quantity: number): LicenseKeyEvent => ({
      type: 'LicenceKeysRequestWithdrawn',
      data: { productId, orderId, lineId: 'L1', quantity, withdrawnAt: now },
    });
    const sold = [added(k1), added(k2), requested(order, 'L1', 2), assigned(order, 'L1', k1, k2)];

    it('revokes for good a key that left the store: never handed out, never added again', () => {
      given(...sold)
        .when(release([{ keyId: k1.keyId, leftStore: true }], 1))
        .thenEmits(revoked(k1));
      given(...sold, revoked(k1), requested(other, 'L1', 1))
        .when(add(k3))
        .thenEmits(added(k3), assigned(other, 'L1', k3), stockLow(0));
      given(...sold, revoked(k1))
        .when(add({ ...k4, fingerprint: k1.fingerprint }))
        .thenFails(DuplicateLicenseKeyError, 'already in the inventory');
    });

    it('returns to stock a key that never left, handed to the next waiting line', () => {
      given(...sold, requested(other, 'L1', 1))
        .when(release([{ keyId: k2.keyId, leftStore: false }], 1))
        .thenEmits(returned(k2), assigned(other, 'L1', k2));
      given(...sold)
        .when(release([{ keyId: k2.keyId, leftStore: false }], 1))
        .thenEmits(returned(k2));
    });

    it('never hands a returned key back to the order it came from', () => {
      given(added(k1), requested(order, 'L1', 2), assigned(order, 'L1', k1))
        .when(release([{ keyId: k1.keyId, leftStore: false }], 1))
        .thenEmits(returned(k1));
    });

    it('takes a cancelled order line out of the queue, so it stops taking new stock', () => {
      given(added(k1), requested(order, 'L1', 3), assigned(order, 'L1', k1))
        .when(release([{ keyId: k1.keyId, leftStore: false }], 0))
        .thenEmits(returned(k1), withdrawn(order, 2));
      given(requested(order, 'L1', 3), withdrawn(order, 3), requested(other, 'L1', 1))
        .when(add(k1))
        .thenEmits(added(k1), assigned(other, 'L1', k1), stockLow(0));
    });

    it('shrinks a waiting line by its refunded units', () => {
      given(requested(order, 'L1', 3))
        .when(release([], 1))
        .thenEmits(withdrawn(order, 2));
    });

    it('changes nothing when given back again (a repeated job)', () => {
      given(...sold, revoked(k1))
        .when(release([{ keyId: k1.keyId, leftStore: true }], 1))
        .thenEmitsNothing();
      given(requested(order, 'L1', 3), withdrawn(order, 3))
        .when(release([], 0))
        .thenEmitsNothing();
    });

    it('asks again for every key of a line whose keys were all taken back (a reopened order)', () => {
      const cancelled = [
        added(k1),
        added(k2),
        requested(order, 'L1', 2),
        assigned(order, 'L1', k1, k2),
        revoked(k1),
        revoked(k2),
      ];
      given(...cancelled, added(k3))
        .when(request(order, 'L1', 2))
        .thenEmits(requested(order, 'L1', 2), assigned(order, 'L1', k3), stockLow(0));
      given(...cancelled, added(k3), requested(order, 'L1', 2), assigned(order, 'L1', k3))
        .when(request(order, 'L1', 2))
        .thenEmitsNothing();
    });

    it('asks only for the keys a line neither holds nor waits for, keeping its place in the queue', () => {
      given(requested(order, 'L1', 3), requested(other, 'L1', 1), withdrawn(order, 1))
        .when(request(order, 'L1', 3))
        .thenEmits(requested(order, 'L1', 1), stockLow(0));
      given(
        requested(order, 'L1', 3),
        requested(other, 'L1', 1),
        withdrawn(order, 1),
        requested(order, 'L1', 1),
      )
        .when(add(k1))
        .thenEmits(added(k1), assigned(order, 'L1', k1), stockLow(0));
    });

    it('asks again for a key a line still wants when one it holds is taken back', () => {
      given(added(k1), added(k2), requested(order, 'L1', 1), assigned(order, 'L1', k1))
        .when(release([{ keyId: k1.keyId, leftStore: false }], 1))
        .thenEmits(returned(k1), requested(order, 'L1', 1), assigned(order, 'L1', k2));
      given(added(k1), requested(order, 'L1', 1), assigned(order, 'L1', k1))
        .when(release([{ keyId: k1.keyId, leftStore: true }], 1))
        .thenEmits(revoked(k1), requested(order, 'L1', 1));
      given(added(k1), added(k2), requested(order, 'L1', 1), assigned(order, 'L1', k1), revoked(k1))
        .when(release([{ keyId: k1.keyId, leftStore: true }], 0))
        .thenEmitsNothing();
    });

    it('keeps a revoked key on record', () => {
      given(...sold, revoked(k1))
        .when({ type: 'RemoveLicenseKey', productId, keyId: k1.keyId, lowStockThreshold: 0, now })
        .thenFails(IllegalStateError, 'was revoked');
    });
  });

  describe('removing a key', () => {
    it('removes an available key', () => {
      given(added(k1), added(k2), added(k3))
        .when({ type: 'RemoveLicenseKey', productId, keyId: k1.keyId, lowStockThreshold: threshold, now })
        .thenEmits({ type: 'LicenceKeyRemoved', data: { productId, keyId: k1.keyId, removedAt: now } });
    });

    it('refuses an assigned key, naming the order', () => {
      given(added(k1), requested(order, 'L1', 1), assigned(order, 'L1', k1))
        .when({ type: 'RemoveLicenseKey', productId, keyId: k1.keyId, lowStockThreshold: 0, now })
        .thenFails(IllegalStateError, `assigned to order #${order.slice(0, 8).toUpperCase()}`);
    });

    it('does not know a key that is not there', () => {
      given()
        .when({ type: 'RemoveLicenseKey', productId, keyId: k1.keyId, lowStockThreshold: 0, now })
        .thenFails(NotFoundError, 'License key not found');
    });
  });
});
