import { toast } from '@/lib/toast';

/**
 * Copies a license key with the toast 'Copied!' / 'License key copied to clipboard.' (storefront and back office);
 * true when it was copied.
 */
export async function copyLicenseKey(key: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(key);
    toast({ title: 'Copied!', description: 'License key copied to clipboard.' });
    return true;
  } catch {
    toast({
      title: 'Copy failed',
      description: 'Select the key and copy it by hand.',
      variant: 'destructive',
    });
    return false;
  }
}
