import type { BackOfficeRole } from '@licensestore/shared/back-office';

export const ROLE_LABELS: Record<BackOfficeRole, string> = { admin: 'Admin', auditor: 'Auditor' };
