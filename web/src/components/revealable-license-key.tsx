import { Copy, Eye, EyeOff } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { copyLicenseKey } from '@/lib/copy-license-key';
import { useRevealLicenseKey } from '@/lib/reveal-license-key';
import { LicenseKeyText } from './license-key-text';

/**
 * A license key as the back office receives it, masked, with Reveal / Hide and Copy for an admin. Both fetch the
 * key in clear through the recorded reveal, once, and keep it while the key is on screen: back-office pages are
 * opened while talking to customers, often with the screen shared, and a key on screen is a key given away.
 * `name` tells the key apart in the buttons' names ("license key 1 of Game"); `className` styles the key's text.
 */
export function RevealableLicenseKey({
  keyId,
  maskedKey,
  name,
  className,
}: {
  keyId: string;
  maskedKey: string;
  name: string;
  className: string;
}) {
  const [clear, setClear] = useState<string | null>(null);
  const [shown, setShown] = useState(false);
  const reveal = useRevealLicenseKey();
  const inClear = async () => {
    if (clear) return clear;
    const key = await reveal.mutateAsync(keyId);
    setClear(key);
    return key;
  };
  return (
    <>
      <LicenseKeyText licenseKey={shown && clear ? clear : maskedKey} className={className} />
      <Button
        variant="ghost"
        className="size-9 shrink-0 p-0"
        aria-label={`${shown ? 'Hide' : 'Reveal'} ${name}`}
        aria-pressed={shown}
        disabled={reveal.isPending}
        onClick={async () => {
          if (shown) setShown(false);
          else if (await inClear().catch(() => null)) setShown(true);
        }}
      >
        {shown ? (
          <EyeOff aria-hidden="true" className="size-4" />
        ) : (
          <Eye aria-hidden="true" className="size-4" />
        )}
      </Button>
      <Button
        variant="ghost"
        className="size-9 shrink-0 p-0"
        aria-label={`Copy ${name}`}
        disabled={reveal.isPending}
        onClick={async () => {
          const key = await inClear().catch(() => null);
          if (key) await copyLicenseKey(key);
        }}
      >
        <Copy aria-hidden="true" className="size-4" />
      </Button>
    </>
  );
}
