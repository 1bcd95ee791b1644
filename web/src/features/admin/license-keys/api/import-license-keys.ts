import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/lib/toast';
import { refreshInventory } from './refresh-inventory';

/** A line the server would not store: its number in the text sent, the key masked, and why. */
export interface RefusedLine {
  line: number;
  key: string;
  reason: string;
}

export interface ImportResult {
  added: number;
  refused: RefusedLine[];
  /** Set when nothing was added (the server's 400). */
  error?: string;
}

const parseJson = (text: string): Partial<ImportResult> | null => {
  try {
    return JSON.parse(text) as Partial<ImportResult>;
  } catch {
    return null;
  }
};

/**
 * POST /api/license-keys/import {productId, keys}. Unlike the other calls it reads the body of a 400 too: when every
 * line is refused the server still lists why, line by line, and that list is what the admin needs to fix the file.
 */
async function importKeys(body: { productId: string; keys: string }): Promise<ImportResult> {
  const response = await fetch('/api/license-keys/import', {
    method: 'POST',
    credentials: 'include',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (response.ok) return JSON.parse(text) as ImportResult;
  if (response.status === 400) {
    const answer = parseJson(text);
    if (Array.isArray(answer?.refused)) return { added: 0, refused: answer.refused, error: answer.error };
  }
  throw new Error(`${response.status}: ${text || response.statusText}`);
}

export function useImportLicenseKeys() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: importKeys,
    onSuccess: async (result) => {
      if (result.added === 0) return;
      toast({
        title: 'License keys imported',
        description: `${result.added} added${result.refused.length > 0 ? `, ${result.refused.length} refused` : ''}.`,
      });
      await refreshInventory(queryClient);
    },
  });
}
