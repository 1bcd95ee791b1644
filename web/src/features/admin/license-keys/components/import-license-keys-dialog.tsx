import { Upload } from 'lucide-react';
import { type ChangeEvent, type FormEvent, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { FormActions } from '@/components/ui/form-actions';
import { FormAlert } from '@/components/ui/form-alert';
import { Label } from '@/components/ui/label';
import { errorSentence } from '@/lib/api';
import { useProducts } from '../api/get-products';
import { type ImportResult, useImportLicenseKeys } from '../api/import-license-keys';
import { KeyFormatHint, ProductField } from './key-form-fields';
import { keyFormatFor } from './product-options';

function ImportOutcome({ result }: { result: ImportResult }) {
  const imported = result.outcome === 'imported';
  return (
    <div role="status" className="grid gap-2 rounded-md border border-border p-3 text-sm">
      <p className="font-medium">{imported ? `${result.summary}.` : result.error}</p>
      {result.lines.length > 0 && (
        <ul
          className="grid max-h-48 gap-1 overflow-y-auto"
          aria-label={imported ? 'Skipped lines' : 'Refused lines'}
        >
          {result.lines.map((line) => (
            <li key={line.line} className="break-words">
              Line {line.line} (<code className="font-mono">{line.key}</code>): {line.reason}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/**
 * Bulk import for one product: keys pasted one per line, or read from a TXT/CSV file into the same box (so the
 * admin sees what will be sent). The server stores nothing when a line is not a key in the product's format, and
 * otherwise adds the new keys and skips those already in stock; either way it reports the lines by number. After an
 * import that went through the box is emptied, so pressing Import again sends nothing twice.
 */
export function ImportLicenseKeysDialog() {
  const [open, setOpen] = useState(false);
  const [productId, setProductId] = useState<string | undefined>();
  const [keys, setKeys] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  // A new key remounts the file input, which has no value React can set: emptied with the box.
  const [fileInput, setFileInput] = useState(0);
  const products = useProducts();
  const importing = useImportLicenseKeys();
  const keyFormat = keyFormatFor(products.data, productId);

  const reset = () => {
    setProductId(undefined);
    setKeys('');
    setProblem(null);
    importing.reset();
  };

  const readFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    if (file) setKeys(await file.text());
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!productId || !keys.trim()) {
      setProblem('Select a product and paste or choose the keys, one per line.');
      return;
    }
    setProblem(null);
    importing.mutate(
      { productId, keys },
      {
        onSuccess: (result) => {
          if (result.outcome !== 'imported') return;
          setKeys('');
          setFileInput((current) => current + 1);
        },
      },
    );
  };

  return (
    <>
      <Button variant="outline" onClick={() => setOpen(true)}>
        <Upload aria-hidden="true" className="size-4" />
        Import Keys
      </Button>
      <Dialog
        open={open}
        onOpenChange={(next) => {
          setOpen(next);
          if (!next) reset();
        }}
        title="Import License Keys"
        description="Paste keys one per line, or choose a TXT or CSV file (first column). Up to 5,000 keys per import. All or nothing: if any line is not a key in the product's format, nothing is imported. Keys already in stock are skipped and the rest imported."
      >
        <form noValidate onSubmit={submit} className="grid gap-4">
          <ProductField
            id="import-product"
            products={products}
            value={productId}
            onValueChange={setProductId}
          />
          <div className="grid gap-2">
            <Label htmlFor="import-keys">License Keys *</Label>
            <textarea
              id="import-keys"
              value={keys}
              onChange={(event) => setKeys(event.target.value)}
              rows={6}
              spellCheck={false}
              placeholder={`${keyFormat}\n${keyFormat}`}
              aria-describedby="import-keys-format"
              className="w-full rounded-md border border-border bg-background px-3 py-2 font-mono text-sm placeholder:text-muted-foreground focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary"
            />
          </div>
          <KeyFormatHint
            id="import-keys-format"
            keyFormat={keyFormat}
            className="-mt-2 text-sm text-muted-foreground"
          />
          <div className="grid gap-2">
            <Label htmlFor="import-file">Or read them from a file</Label>
            <input
              key={fileInput}
              id="import-file"
              type="file"
              accept=".txt,.csv,text/plain,text/csv"
              onChange={readFile}
              className="text-sm file:mr-3 file:rounded-md file:border file:border-border file:bg-background file:px-3 file:py-1.5 file:text-sm file:text-foreground focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary"
            />
          </div>
          {problem && <p className="text-sm text-destructive">{problem}</p>}
          {importing.error && <FormAlert>{errorSentence(importing.error)}</FormAlert>}
          {importing.data && <ImportOutcome result={importing.data} />}
          {/* Not 'Close': the dialog's corner button already has that name. */}
          <FormActions
            onCancel={() => setOpen(false)}
            cancelLabel="Done"
            submitLabel="Import"
            busyLabel="Importing..."
            busy={importing.isPending}
          />
        </form>
      </Dialog>
    </>
  );
}
