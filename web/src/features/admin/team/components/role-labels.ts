import type { BackOfficeRole } from '@licensestore/domain/back-office';

export const ROLE_LABELS: Record<BackOfficeRole, string> = { admin: 'Admin', auditor: 'Auditor' };
