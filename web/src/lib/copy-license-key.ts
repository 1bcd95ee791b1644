import { toast } from '@/lib/toast';

/** Copies a licence key with the spec's toast (storefront and back office) ('Copied!' / 'License key copied to clipboard.'). */
export async function copyLicenseKey(key: string) {
  try {
    await navigator.clipboard.writeText(key);
    toast({ title: 'Copied!', description: 'License key copied to clipboard.' });
  } catch {
    toast({
      title: 'Copy failed',
      description: 'Select the key and copy it by hand.',
      variant: 'destructive',
    });
  }
}
