import { Check, Copy } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Button } from '@/components/ui/button';
import { copyLicenseKey } from '@/lib/copy-license-key';

/** How long the button says "Copied" before it offers to copy again. */
const COPIED_MS = 2000;

/** Copies one key (toast 'Copied!'); the button itself says "Copied" for a moment, read out by screen readers. */
export function CopyKeyButton({ licenseKey, productName }: { licenseKey: string; productName: string }) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPIED_MS);
    return () => clearTimeout(timer);
  }, [copied]);

  return (
    <Button
      variant="outline"
      className="h-8 min-w-21 shrink-0 px-2.5 text-xs"
      aria-label={`Copy license key ${licenseKey} for ${productName}`}
      onClick={async () => {
        if (await copyLicenseKey(licenseKey)) setCopied(true);
      }}
    >
      {copied ? (
        <Check aria-hidden="true" className="size-3.5 text-success" />
      ) : (
        <Copy aria-hidden="true" className="size-3.5" />
      )}
      <span aria-live="polite">{copied ? 'Copied' : 'Copy'}</span>
    </Button>
  );
}
