import {
  type ImportLicenseKeysRequest,
  importedKeysSchema,
  type RefusedLine,
  refusedImportSchema,
} from '@licensestore/contract/license-keys';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError } from '@/lib/api';
import { toast } from '@/lib/toast';
import { refreshInventory } from './refresh-inventory';

/** An import as the server answered it: keys added and lines skipped (200), or nothing stored for the lines that are not keys (400). */
export type ImportResult =
  | { outcome: 'imported'; added: number; summary: string; lines: RefusedLine[] }
  | { outcome: 'refused'; error: string; lines: RefusedLine[] };

const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
};

/**
 * POST /api/license-keys/import {productId, keys}. Unlike the other calls it reads the body of a 400 too: when the
 * text holds lines that are not keys the server lists them, line by line, and that list is what the admin needs
 * to fix the file.
 */
async function importKeys(body: ImportLicenseKeysRequest): Promise<ImportResult> {
  const response = await fetch('/api/license-keys/import', {
    method: 'POST',
    credentials: 'include',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  const answer = parseJson(text);
  if (response.ok) {
    const { added, summary, skipped } = importedKeysSchema.parse(answer);
    return { outcome: 'imported', added, summary, lines: skipped };
  }
  const refusal = response.status === 400 ? refusedImportSchema.safeParse(answer) : null;
  if (refusal?.success) return { outcome: 'refused', error: refusal.data.error, lines: refusal.data.refused };
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
