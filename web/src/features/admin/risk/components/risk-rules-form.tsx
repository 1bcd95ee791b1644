import type { RiskRulesView } from '@licensestore/contract/risk';
import { type FormEvent, useState } from 'react';
import { BusyButton } from '@/components/ui/button';
import { FormAlert } from '@/components/ui/form-alert';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { errorSentence } from '@/lib/api';
import { useSaveRiskRules } from '../api/risk-rules';
import { useWhatIf } from '../api/what-if';
import { fieldsOf, type RuleFields, rulesOf } from '../utils/rule-fields';
import { WhatIfResultView } from './what-if-result';

const FIELDS: ReadonlyArray<{
  name: keyof RuleFields;
  label: string;
  hint: string;
  inputMode: 'decimal' | 'numeric';
}> = [
  {
    name: 'holdAtOrAbove',
    label: 'Hold orders of at least ($)',
    hint: 'Empty: no limit on the total.',
    inputMode: 'decimal',
  },
  {
    name: 'firstOrderAtOrAbove',
    label: "Hold a customer's first order of at least ($)",
    hint: 'A first order is one with no earlier order under the same email address.',
    inputMode: 'decimal',
  },
  {
    name: 'velocityWindowMinutes',
    label: 'Velocity window (minutes)',
    hint: 'Orders from one client address within this many minutes are counted.',
    inputMode: 'numeric',
  },
  {
    name: 'velocityMaxOrders',
    label: 'Hold after this many orders in the window',
    hint: 'More than this many orders holds the next.',
    inputMode: 'numeric',
  },
  {
    name: 'velocityMaxEmails',
    label: 'Hold after this many email addresses in the window',
    hint: 'More than this many distinct addresses holds the order.',
    inputMode: 'numeric',
  },
  {
    name: 'productQuantityAtOrAbove',
    label: 'Hold orders of at least this many units of one product',
    hint: 'Empty: any quantity.',
    inputMode: 'numeric',
  },
  {
    name: 'overdueAfterMinutes',
    label: 'Overdue after (minutes)',
    hint: 'A held order waiting longer shows as overdue.',
    inputMode: 'numeric',
  },
  {
    name: 'autoApproveAfterMinutes',
    label: 'Approve automatically after (minutes)',
    hint: 'Empty: a held order waits for an admin.',
    inputMode: 'numeric',
  },
];

/** The rules, editable by admins (auditors see them read-only: the server refuses their saves anyway). */
export function RiskRulesForm({ rules, readOnly }: { rules: RiskRulesView['rules']; readOnly: boolean }) {
  const [fields, setFields] = useState(() => fieldsOf(rules));
  const save = useSaveRiskRules();
  const whatIf = useWhatIf();
  const set = (name: keyof RuleFields) => (value: string) =>
    setFields((current) => ({ ...current, [name]: value }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate(rulesOf(fields));
  };
  return (
    <form onSubmit={submit} aria-label="Risk rules" className="grid gap-4">
      <fieldset disabled={readOnly || save.isPending} className="grid gap-4 sm:grid-cols-2">
        {FIELDS.map(({ name, label, hint, inputMode }) => (
          <FormField key={name} id={`risk-${name}`} label={label} hint={hint}>
            {(control) => (
              <Input
                {...control}
                inputMode={inputMode}
                value={fields[name]}
                onChange={(event) => set(name)(event.target.value)}
              />
            )}
          </FormField>
        ))}
        <FormField
          id="risk-blockedEmailDomains"
          label="Blocked email domains"
          hint="One per line; an address at the domain or any subdomain of it is held."
          className="sm:col-span-2"
        >
          {(control) => (
            <textarea
              {...control}
              rows={3}
              className="rounded-md border border-border bg-background px-3 py-2 text-sm"
              value={fields.blockedEmailDomains}
              onChange={(event) => set('blockedEmailDomains')(event.target.value)}
            />
          )}
        </FormField>
      </fieldset>
      {save.error && <FormAlert>{errorSentence(save.error)}</FormAlert>}
      {whatIf.error && <FormAlert>{errorSentence(whatIf.error)}</FormAlert>}
      {!readOnly && (
        <div className="flex flex-wrap justify-end gap-2">
          <BusyButton
            type="button"
            variant="outline"
            busy={whatIf.isPending}
            busyLabel="Replaying the last 12 months..."
            onClick={() => whatIf.mutate({ draft: rulesOf(fields) })}
          >
            Try on the last 12 months
          </BusyButton>
          <BusyButton type="submit" busy={save.isPending} busyLabel="Saving...">
            Save rules
          </BusyButton>
        </div>
      )}
      {whatIf.data && <WhatIfResultView result={whatIf.data} />}
    </form>
  );
}
