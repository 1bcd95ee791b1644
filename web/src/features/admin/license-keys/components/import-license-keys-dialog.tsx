import { Upload } from 'lucide-react';
import { type ChangeEvent, type FormEvent, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Label } from '@/components/ui/label';
import { Select } from '@/components/ui/select';
import { errorSentence } from '@/lib/api';
import { useProducts } from '../api/get-products';
import { type ImportResult, useImportLicenseKeys } from '../api/import-license-keys';
import { keyFormatFor, productOptions } from './product-options';

function ImportOutcome({ result }: { result: ImportResult }) {
  return (
    <div role="status" className="grid gap-2 rounded-md border border-border p-3 text-sm">
      <p className="font-medium">
        {result.added === 0
          ? (result.error ?? 'No license key was added')
          : `${result.added} license key${result.added === 1 ? '' : 's'} added`}
      </p>
      {result.refused.length > 0 && (
        <>
          <p className="text-muted-foreground">
            {result.refused.length} line{result.refused.length === 1 ? '' : 's'} refused:
          </p>
          <ul className="grid max-h-48 gap-1 overflow-y-auto" aria-label="Refused lines">
            {result.refused.map((refused) => (
              <li key={refused.line} className="break-words">
                Line {refused.line} (<code className="font-mono">{refused.key}</code>): {refused.reason}
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}

/**
 * Bulk import for one product: keys pasted one per line, or read from a TXT/CSV file into the same box (so the
 * admin sees what will be sent). The server stores nothing when a line is not a key in the product's format, and
 * otherwise skips the keys it already holds; either way it reports the lines by number.
 */
export function ImportLicenseKeysDialog() {
  const [open, setOpen] = useState(false);
  const [productId, setProductId] = useState<string | undefined>();
  const [keys, setKeys] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
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
    importing.mutate({ productId, keys });
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
        description="Paste keys one per line, or choose a TXT or CSV file (first column). Up to 5,000 keys per import. All or nothing: if any line is not a key in the product's format, nothing is imported; keys already in the inventory are skipped."
      >
        <form noValidate onSubmit={submit} className="grid gap-4">
          <div className="grid gap-2">
            <Label htmlFor="import-product">Product *</Label>
            <Select
              id="import-product"
              value={productId}
              onValueChange={setProductId}
              options={productOptions(products.data)}
              placeholder={products.isPending ? 'Loading products...' : 'Select a product'}
              disabled={products.isPending}
            />
          </div>
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
          <p id="import-keys-format" className="-mt-2 text-sm text-muted-foreground">
            Format: <code className="font-mono whitespace-nowrap">{keyFormat}</code> (X: an upper-case letter
            or a digit)
          </p>
          <div className="grid gap-2">
            <Label htmlFor="import-file">Or read them from a file</Label>
            <input
              id="import-file"
              type="file"
              accept=".txt,.csv,text/plain,text/csv"
              onChange={readFile}
              className="text-sm file:mr-3 file:rounded-md file:border file:border-border file:bg-background file:px-3 file:py-1.5 file:text-sm file:text-foreground focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary"
            />
          </div>
          {problem && <p className="text-sm text-destructive">{problem}</p>}
          {importing.error && (
            <p role="alert" className="rounded-md border border-destructive p-3 text-sm text-destructive">
              {errorSentence(importing.error)}
            </p>
          )}
          {importing.data && <ImportOutcome result={importing.data} />}
          <div className="flex justify-end gap-2">
            {/* Not 'Close': the dialog's corner button already has that name. */}
            <Button variant="outline" onClick={() => setOpen(false)}>
              Done
            </Button>
            <Button type="submit" disabled={importing.isPending}>
              {importing.isPending ? 'Importing...' : 'Import'}
            </Button>
          </div>
        </form>
      </Dialog>
    </>
  );
}
