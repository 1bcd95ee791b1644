import type { ExportSigningView } from '@licensestore/contract/audit';
import { useQuery } from '@tanstack/react-query';
import { apiRequest, getJson } from '@/lib/api';
import { saveDownload } from '@/lib/download-file';

export const useExportSigning = () =>
  useQuery({
    queryKey: ['/api/audit/export/signing'],
    queryFn: () => getJson<ExportSigningView>('/api/audit/export/signing', { on401: 'throw' }),
  });

const DAY_MS = 86_400_000;

/**
 * The query of a period of whole days in UTC, `to` inclusive: up to the midnight after it, or, while that day is
 * still running, up to the moment of the export (an export covers only time that has passed).
 */
export function periodQuery(fromDay: string, toDay: string, now = new Date()): string {
  const end = new Date(Date.parse(`${toDay}T00:00:00.000Z`) + DAY_MS);
  const query = new URLSearchParams({ from: fromDay });
  if (end <= now) query.set('to', end.toISOString().slice(0, 10));
  return query.toString();
}

/** Downloads the signed export of the period (a zip of the NDJSON file and its manifest) as the browser's file. */
export async function downloadPeriodExport(fromDay: string, toDay: string): Promise<void> {
  // The server names the zip after the period.
  await saveDownload(
    await apiRequest('GET', `/api/audit/export?${periodQuery(fromDay, toDay)}`),
    'audit-export.zip',
  );
}
