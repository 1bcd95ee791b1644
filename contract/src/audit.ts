// The audit screens' answers that are not the audit log's own views.

/** GET /api/audit/export/signing: which key signs the period export; null when none is set (no export then). */
export interface ExportSigningView {
  keyId: string | null;
}
