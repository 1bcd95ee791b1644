import type { OrderItemView } from '@licensestore/domain';
import { Download, ExternalLink } from 'lucide-react';

/**
 * Where to get the software of one order line: the product's official installer and its installation notes, as the
 * delivery e-mail gives them. Nothing when the product has neither.
 */
export function ProductDownload({ item }: { item: OrderItemView }) {
  if (!item.downloadUrl && !item.installationNotes) return null;
  return (
    <div className="grid gap-2 border-t border-border pt-3 text-sm">
      {item.downloadUrl && (
        <a
          href={item.downloadUrl}
          target="_blank"
          rel="noopener noreferrer"
          className="inline-flex w-fit items-center gap-2 font-medium text-primary underline underline-offset-4"
        >
          <Download aria-hidden="true" className="size-4 shrink-0" />
          Download the official installer
          <span className="sr-only">for {item.productName} (opens in a new tab)</span>
          <ExternalLink aria-hidden="true" className="size-3.5 shrink-0" />
        </a>
      )}
      {item.installationNotes && (
        <div>
          <p className="font-medium">Installation notes</p>
          <p className="whitespace-pre-line break-words text-muted-foreground">{item.installationNotes}</p>
        </div>
      )}
    </div>
  );
}
