import { productEventSchemas } from '@licensestore/domain/catalogue';
import { licenseKeyEventSchemas } from '@licensestore/domain/license-keys';
import { checkoutEventSchemas, orderEventSchemas } from '@licensestore/domain/orders';
import { receiptEventSchemas } from '@licensestore/domain/receipts';
import { refundEmailEventSchemas } from '@licensestore/domain/refund-emails';
import { riskEventSchemas } from '@licensestore/domain/risk';
import { describe, expect, it } from 'vitest';
import { EVENT_TYPES } from './event-types';

describe("the event log's type filter", () => {
  it('offers every event type the store records, the holds and their decisions included', () => {
    const recorded = [
      productEventSchemas,
      checkoutEventSchemas,
      orderEventSchemas,
      licenseKeyEventSchemas,
      receiptEventSchemas,
      refundEmailEventSchemas,
      riskEventSchemas,
    ].flatMap((schemas) => Object.keys(schemas));
    expect([...EVENT_TYPES].sort()).toEqual(recorded.sort());
  });
});
