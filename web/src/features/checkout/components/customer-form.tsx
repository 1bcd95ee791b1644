import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import type { Customer } from '../types';
import type { CustomerErrors } from '../utils/customer-validation';

interface FieldProps {
  name: keyof Customer;
  label: string;
  type: 'text' | 'email';
  autoComplete: string;
  value: string;
  error: string | undefined;
  hint?: string;
  disabled: boolean;
  onChange: (value: string) => void;
  onBlur: () => void;
}

function Field({ name, label, hint, error, onChange, ...input }: FieldProps) {
  const hintId = `${name}-hint`;
  const errorId = `${name}-error`;
  return (
    <div className="grid gap-2">
      <Label htmlFor={name}>{label}</Label>
      <Input
        id={name}
        name={name}
        required
        aria-invalid={error ? true : undefined}
        aria-describedby={[hint && hintId, error && errorId].filter(Boolean).join(' ') || undefined}
        onChange={(event) => onChange(event.target.value)}
        {...input}
      />
      {hint && (
        <p id={hintId} className="text-sm text-muted-foreground">
          {hint}
        </p>
      )}
      {/* The line is kept when empty, so a message appearing does not push the page down. */}
      <p id={errorId} className="min-h-5 text-sm text-destructive">
        {error}
      </p>
    </div>
  );
}

export interface CustomerFormProps {
  customer: Customer;
  /** Messages to show: those of the fields left (blur) or of an attempt to pay. */
  errors: CustomerErrors;
  disabled: boolean;
  onChange: (customer: Customer) => void;
  onLeave: (field: keyof Customer) => void;
}

/** Customer Information: who the license keys go to. */
export function CustomerForm({ customer, errors, disabled, onChange, onLeave }: CustomerFormProps) {
  return (
    <Card aria-labelledby="customer-information">
      <CardHeader>
        <CardTitle id="customer-information">Customer Information</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-2">
        <Field
          name="customerName"
          label="Full Name *"
          type="text"
          autoComplete="name"
          value={customer.customerName}
          error={errors.customerName}
          disabled={disabled}
          onChange={(customerName) => onChange({ ...customer, customerName })}
          onBlur={() => onLeave('customerName')}
        />
        <Field
          name="customerEmail"
          label="Email Address *"
          type="email"
          autoComplete="email"
          value={customer.customerEmail}
          hint="License keys will be sent to this email address"
          error={errors.customerEmail}
          disabled={disabled}
          onChange={(customerEmail) => onChange({ ...customer, customerEmail })}
          onBlur={() => onLeave('customerEmail')}
        />
      </CardContent>
    </Card>
  );
}
