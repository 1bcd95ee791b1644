import { INSTALLATION_NOTES_MAX_LENGTH } from '@licensestore/domain/catalogue/download-url';
import {
  DEFAULT_KEY_FORMAT,
  KEY_FORMAT_HELP,
  KEY_FORMAT_MAX_LENGTH,
} from '@licensestore/domain/catalogue/key-format';
import { type FormEvent, useState } from 'react';
import { FormActions } from '@/components/ui/form-actions';
import { FormAlert } from '@/components/ui/form-alert';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { ImageUploader } from '@/features/admin/uploads/components/image-uploader';
import { errorSentence } from '@/lib/api';
import {
  type ProductFormProblems,
  type ProductFormValues,
  type ProductPayload,
  productPayload,
  validateProductForm,
} from '../utils/product-form-values';

const TEXTAREA =
  'flex min-h-24 w-full rounded-md border border-border bg-background px-3 py-2 text-base text-foreground placeholder:text-muted-foreground focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary aria-invalid:border-destructive sm:text-sm';
const CHECKBOX =
  'size-4 rounded border-border accent-primary focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary';

/**
 * The add and edit form. Checks the required fields before sending; what the server still
 * refuses (its 400 names the field) is shown above the buttons.
 */
export function ProductForm({
  initial,
  submitLabel,
  busyLabel,
  saving,
  serverError,
  onSubmit,
  onCancel,
}: {
  initial: ProductFormValues;
  submitLabel: string;
  busyLabel: string;
  saving: boolean;
  serverError: Error | null;
  onSubmit: (payload: ProductPayload) => void;
  onCancel: () => void;
}) {
  const [values, setValues] = useState(initial);
  const [problems, setProblems] = useState<ProductFormProblems>({});

  const set = <K extends keyof ProductFormValues>(field: K, value: ProductFormValues[K]) => {
    setValues((current) => ({ ...current, [field]: value }));
    setProblems((current) => ({ ...current, [field]: undefined }));
  };
  const text = (field: Exclude<keyof ProductFormValues, 'featured' | 'inStock'>) => ({
    value: values[field],
    onChange: (event: { target: { value: string } }) => set(field, event.target.value),
  });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found = validateProductForm(values);
    setProblems(found);
    const first = Object.keys(found)[0];
    if (first) {
      // Take the keyboard (and a screen reader) to the first thing to fix.
      event.currentTarget.querySelector<HTMLElement>(`#product-${first}`)?.focus();
      return;
    }
    onSubmit(productPayload(values));
  };

  return (
    <form noValidate onSubmit={submit} className="grid gap-4 sm:grid-cols-2">
      <FormField id="product-name" label="Product Name *" problem={problems.name} className="sm:col-span-2">
        {(control) => <Input {...control} {...text('name')} required autoComplete="off" />}
      </FormField>
      <FormField id="product-category" label="Category *" problem={problems.category}>
        {(control) => <Input {...control} {...text('category')} required placeholder="e.g. Office" />}
      </FormField>
      <FormField id="product-platform" label="Platform *" problem={problems.platform}>
        {(control) => <Input {...control} {...text('platform')} required placeholder="e.g. Windows" />}
      </FormField>
      <FormField
        id="product-description"
        label="Description *"
        problem={problems.description}
        className="sm:col-span-2"
      >
        {(control) => (
          <textarea {...control} {...text('description')} required rows={4} className={TEXTAREA} />
        )}
      </FormField>
      <FormField id="product-regularPrice" label="Regular Price *" problem={problems.regularPrice}>
        {(control) => (
          <Input
            {...control}
            {...text('regularPrice')}
            type="number"
            inputMode="decimal"
            min="0"
            step="0.01"
            required
            placeholder="0.00"
          />
        )}
      </FormField>
      <FormField id="product-salePrice" label="Sale Price (optional)" problem={problems.salePrice}>
        {(control) => (
          <Input
            {...control}
            {...text('salePrice')}
            type="number"
            inputMode="decimal"
            min="0"
            step="0.01"
            placeholder="0.00"
          />
        )}
      </FormField>
      <FormField
        id="product-imageUrl"
        label="Image URL *"
        problem={problems.imageUrl}
        className="sm:col-span-2"
      >
        {(control) => (
          <Input
            {...control}
            {...text('imageUrl')}
            required
            placeholder="/objects/uploads/... (upload an image below)"
          />
        )}
      </FormField>
      <div className="grid items-start gap-3 sm:col-span-2 sm:grid-cols-[1fr_auto]">
        <ImageUploader onUploaded={(objectPath) => set('imageUrl', objectPath)} />
        {values.imageUrl.trim() !== '' && (
          <figure className="grid justify-items-start gap-1 sm:justify-items-center">
            <img
              src={values.imageUrl}
              alt={values.name.trim() ? `Preview: ${values.name.trim()}` : 'Preview of the uploaded file'}
              className="size-28 rounded-md border border-border bg-muted object-cover"
            />
            <figcaption className="text-xs text-muted-foreground">Preview</figcaption>
          </figure>
        )}
      </div>
      <FormField
        id="product-downloadUrl"
        label="Download URL (optional)"
        problem={problems.downloadUrl}
        hint="The vendor's official installer page, starting with https://. Linked in the delivery email."
        className="sm:col-span-2"
      >
        {(control) => (
          <Input
            {...control}
            {...text('downloadUrl')}
            type="url"
            inputMode="url"
            autoComplete="off"
            spellCheck={false}
            placeholder="https://www.vendor.com/download"
          />
        )}
      </FormField>
      <FormField
        id="product-installationNotes"
        label="Installation Notes (optional)"
        problem={problems.installationNotes}
        hint={`Shown with the download link; at most ${INSTALLATION_NOTES_MAX_LENGTH} characters.`}
        className="sm:col-span-2"
      >
        {(control) => (
          <textarea
            {...control}
            {...text('installationNotes')}
            rows={3}
            maxLength={INSTALLATION_NOTES_MAX_LENGTH}
            placeholder="e.g. Sign in to your vendor account, enter the license key, then run the installer."
            className={TEXTAREA}
          />
        )}
      </FormField>
      <FormField
        id="product-keyFormat"
        label="License Key Format (optional)"
        problem={problems.keyFormat}
        hint={KEY_FORMAT_HELP}
        className="sm:col-span-2"
      >
        {(control) => (
          <Input
            {...control}
            {...text('keyFormat')}
            autoComplete="off"
            spellCheck={false}
            maxLength={KEY_FORMAT_MAX_LENGTH}
            placeholder={DEFAULT_KEY_FORMAT}
            className="font-mono"
          />
        )}
      </FormField>
      <div className="flex flex-wrap gap-x-6 gap-y-3 sm:col-span-2">
        <label className="flex items-center gap-2 text-sm font-medium">
          <input
            type="checkbox"
            className={CHECKBOX}
            checked={values.featured}
            onChange={(event) => set('featured', event.target.checked)}
          />
          Featured
        </label>
        <label className="flex items-center gap-2 text-sm font-medium">
          <input
            type="checkbox"
            className={CHECKBOX}
            checked={values.inStock}
            onChange={(event) => set('inStock', event.target.checked)}
          />
          In Stock
        </label>
      </div>
      {serverError && <FormAlert className="sm:col-span-2">{errorSentence(serverError)}</FormAlert>}
      <FormActions
        onCancel={onCancel}
        submitLabel={submitLabel}
        busyLabel={busyLabel}
        busy={saving}
        className="sm:col-span-2"
      />
    </form>
  );
}
