import { toast } from '@/lib/toast';

/** Copies a licence key with the spec's toast ('Copied!' / 'License key copied to clipboard.'). */
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
