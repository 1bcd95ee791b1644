import { toast } from '@/lib/toast';

/** Copies a licence key, with the storefront's toast (spec section 2). */
export async function copyKey(key: string) {
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
