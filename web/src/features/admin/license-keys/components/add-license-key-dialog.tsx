import { Plus } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select } from '@/components/ui/select';
import { errorSentence } from '@/lib/api';
import { useAddLicenseKey } from '../api/add-license-key';
import { useProducts } from '../api/get-products';
import { keyFormatFor, productOptions } from './product-options';

interface Problems {
  product?: string;
  key?: string;
}

/** Add License Key: a product and a key, both required. */
export function AddLicenseKeyDialog() {
  const [open, setOpen] = useState(false);
  const [productId, setProductId] = useState<string | undefined>();
  const [key, setKey] = useState('');
  const [problems, setProblems] = useState<Problems>({});
  const products = useProducts();
  const add = useAddLicenseKey();
  const keyFormat = keyFormatFor(products.data, productId);

  const reset = () => {
    setProductId(undefined);
    setKey('');
    setProblems({});
    add.reset();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found: Problems = {
      product: productId ? undefined : 'Please select a product',
      key: key.trim() ? undefined : 'Please enter a license key',
    };
    setProblems(found);
    if (found.product || found.key || !productId) return;
    add.mutate(
      { productId, key: key.trim() },
      {
        onSuccess: () => {
          setOpen(false);
          reset();
        },
      },
    );
  };

  return (
    <>
      <Button onClick={() => setOpen(true)}>
        <Plus aria-hidden="true" className="size-4" />
        Add License Key
      </Button>
      <Dialog
        open={open}
        onOpenChange={(next) => {
          setOpen(next);
          if (!next) reset();
        }}
        title="Add License Key"
        description="Add a license key to a product's inventory. Paid orders waiting for this product get it first."
      >
        <form noValidate onSubmit={submit} className="grid gap-4">
          <div className="grid gap-2">
            <Label htmlFor="license-key-product">Product *</Label>
            <Select
              id="license-key-product"
              value={productId}
              onValueChange={(value) => {
                setProductId(value);
                setProblems({ ...problems, product: undefined });
              }}
              options={productOptions(products.data)}
              placeholder={products.isPending ? 'Loading products...' : 'Select a product'}
              disabled={products.isPending}
            />
            {problems.product && <p className="text-sm text-destructive">{problems.product}</p>}
          </div>
          <div className="grid gap-2">
            <Label htmlFor="license-key-text">License Key *</Label>
            <Input
              id="license-key-text"
              value={key}
              onChange={(event) => setKey(event.target.value)}
              placeholder={keyFormat}
              autoComplete="off"
              spellCheck={false}
              required
              aria-invalid={problems.key ? true : undefined}
              aria-describedby={problems.key ? 'license-key-text-problem' : 'license-key-text-format'}
              className="font-mono"
            />
            {problems.key ? (
              <p id="license-key-text-problem" className="text-sm text-destructive">
                {problems.key}
              </p>
            ) : (
              <p id="license-key-text-format" className="text-sm text-muted-foreground">
                Format: <code className="font-mono whitespace-nowrap">{keyFormat}</code> (X: an upper-case
                letter or a digit)
              </p>
            )}
          </div>
          {add.error && (
            <p role="alert" className="rounded-md border border-destructive p-3 text-sm text-destructive">
              {errorSentence(add.error)}
            </p>
          )}
          <div className="flex justify-end gap-2">
            <Button variant="outline" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={add.isPending}>
              {add.isPending ? 'Adding...' : 'Add License Key'}
            </Button>
          </div>
        </form>
      </Dialog>
    </>
  );
}
