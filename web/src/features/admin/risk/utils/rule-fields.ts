import type { RiskRulesRequest, RiskRulesView } from '@licensestore/contract/risk';

type Rules = RiskRulesView['rules'];

/** The form's fields as typed: empty switches a rule off. */
export interface RuleFields {
  holdAtOrAbove: string;
  firstOrderAtOrAbove: string;
  velocityWindowMinutes: string;
  velocityMaxOrders: string;
  velocityMaxEmails: string;
  blockedEmailDomains: string;
  productQuantityAtOrAbove: string;
  overdueAfterMinutes: string;
  autoApproveAfterMinutes: string;
}

const text = (value: string | number | null | undefined) =>
  value === null || value === undefined ? '' : String(value);

export const fieldsOf = (rules: Rules): RuleFields => ({
  holdAtOrAbove: text(rules.holdAtOrAbove),
  firstOrderAtOrAbove: text(rules.firstOrderAtOrAbove),
  velocityWindowMinutes: text(rules.velocity?.windowMinutes),
  velocityMaxOrders: text(rules.velocity?.maxOrders),
  velocityMaxEmails: text(rules.velocity?.maxEmails),
  blockedEmailDomains: rules.blockedEmailDomains.join('\n'),
  productQuantityAtOrAbove: text(rules.productQuantityAtOrAbove),
  overdueAfterMinutes: text(rules.overdueAfterMinutes),
  autoApproveAfterMinutes: text(rules.autoApproveAfterMinutes),
});

const amountOrNull = (value: string) => (value.trim() === '' ? null : value.trim());
/** A whole number as typed; what is not one is sent as typed, for the server to name the field it refuses. */
const countOrNull = (value: string): number | null => (value.trim() === '' ? null : Number(value.trim()));

/** The rules the fields say, in the request's shape; a velocity rule needs its window and one of its limits. */
export function rulesOf(fields: RuleFields): RiskRulesRequest {
  const maxOrders = countOrNull(fields.velocityMaxOrders);
  const maxEmails = countOrNull(fields.velocityMaxEmails);
  const windowMinutes = countOrNull(fields.velocityWindowMinutes);
  return {
    holdAtOrAbove: amountOrNull(fields.holdAtOrAbove),
    firstOrderAtOrAbove: amountOrNull(fields.firstOrderAtOrAbove),
    velocity:
      windowMinutes === null || (maxOrders === null && maxEmails === null)
        ? null
        : { windowMinutes, maxOrders, maxEmails },
    blockedEmailDomains: fields.blockedEmailDomains
      .split(/[\s,]+/)
      .map((domain) => domain.trim())
      .filter(Boolean),
    productQuantityAtOrAbove: countOrNull(fields.productQuantityAtOrAbove),
    overdueAfterMinutes: countOrNull(fields.overdueAfterMinutes) ?? 60,
    autoApproveAfterMinutes: countOrNull(fields.autoApproveAfterMinutes),
  };
}
