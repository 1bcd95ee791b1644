import type { OrderItemView } from '@licensestore/shared';
import { Copy, KeyRound } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { copyLicenseKey } from '@/lib/copy-license-key';
import { formatPrice } from '@/lib/format';

function KeyLine({ licenseKey, productName }: { licenseKey: string; productName: string }) {
  return (
    <li className="flex items-center gap-2 rounded-md border border-border bg-muted/50 py-1 pr-1 pl-3">
      <code className="min-w-0 flex-1 font-mono text-sm break-all">{licenseKey}</code>
      <Button
        variant="ghost"
        className="size-9 shrink-0 p-0"
        aria-label={`Copy license key ${licenseKey} for ${productName}`}
        onClick={() => copyLicenseKey(licenseKey)}
      >
        <Copy aria-hidden="true" className="size-4" />
      </Button>
    </li>
  );
}

/** Your License Keys: each line's keys as they are delivered (pushed by the server while the page is open). */
export function LicenseKeys({ items }: { items: OrderItemView[] }) {
  return (
    <Card aria-labelledby="license-keys">
      <CardHeader>
        <CardTitle id="license-keys" className="flex items-center gap-2">
          <KeyRound aria-hidden="true" className="size-5 text-primary" />
          Your License Keys
        </CardTitle>
      </CardHeader>
      <CardContent>
        <ul className="grid gap-4">
          {items.map((item) => (
            <li key={item.id} className="grid gap-3 rounded-lg border border-border p-4">
              <div className="flex flex-wrap items-start justify-between gap-2">
                <div>
                  <p className="font-medium">{item.productName}</p>
                  <p className="text-sm text-muted-foreground">Quantity: {item.quantity}</p>
                </div>
                <p className="font-medium tabular-nums">{formatPrice(item.price)}</p>
              </div>
              {/* Announced when keys arrive by themselves. */}
              <div aria-live="polite">
                {item.licenseKeys.length > 0 && (
                  <ul className="grid gap-2" aria-label={`License keys for ${item.productName}`}>
                    {item.licenseKeys.map((key) => (
                      <KeyLine key={key} licenseKey={key} productName={item.productName} />
                    ))}
                  </ul>
                )}
                {item.licenseKeys.length < item.quantity && (
                  <p className="text-sm text-muted-foreground italic">
                    License key will be emailed shortly...
                  </p>
                )}
              </div>
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}
