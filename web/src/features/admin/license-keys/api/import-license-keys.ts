import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError } from '@/lib/api';
import { toast } from '@/lib/toast';
import { refreshInventory } from './refresh-inventory';

/** A line the server did not store: its number in the text sent, the key masked, and why. */
export interface ImportLine {
  line: number;
  key: string;
  reason: string;
}

/** An import as the server answered it: keys added and lines skipped (200), or nothing stored for the lines that are not keys (400). */
export type ImportResult =
  | { outcome: 'imported'; added: number; summary: string; lines: ImportLine[] }
  | { outcome: 'refused'; error: string; lines: ImportLine[] };

const parseJson = (text: string): Record<string, unknown> | null => {
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    return null;
  }
};

/**
 * POST /api/license-keys/import {productId, keys}. Unlike the other calls it reads the body of a 400 too: when the
 * text holds lines that are not keys the server lists them, line by line, and that list is what the admin needs
 * to fix the file.
 */
async function importKeys(body: { productId: string; keys: string }): Promise<ImportResult> {
  const response = await fetch('/api/license-keys/import', {
    method: 'POST',
    credentials: 'include',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  const answer = parseJson(text);
  if (response.ok) {
    const { added, summary, skipped } = answer as { added: number; summary: string; skipped: ImportLine[] };
    return { outcome: 'imported', added, summary, lines: skipped };
  }
  if (response.status === 400 && Array.isArray(answer?.refused) && typeof answer.error === 'string') {
    return { outcome: 'refused', error: answer.error, lines: answer.refused as ImportLine[] };
  }
  throw new ApiError(response.status, text || response.statusText);
}

export function useImportLicenseKeys() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: importKeys,
    onSuccess: async (result) => {
      if (result.outcome === 'refused') return;
      toast({ title: 'License keys imported', description: `${result.summary}.` });
      if (result.added > 0) await refreshInventory(queryClient);
    },
  });
}
