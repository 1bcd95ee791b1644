import { Plus } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { FormActions } from '@/components/ui/form-actions';
import { FormAlert } from '@/components/ui/form-alert';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { errorSentence } from '@/lib/api';
import { useAddLicenseKey } from '../api/add-license-key';
import { useProducts } from '../api/get-products';
import { KeyFormatHint, ProductField } from './key-form-fields';
import { keyFormatFor } from './product-options';

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
          <ProductField
            id="license-key-product"
            products={products}
            value={productId}
            onValueChange={(value) => {
              setProductId(value);
              setProblems({ ...problems, product: undefined });
            }}
            problem={problems.product}
          />
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
              <KeyFormatHint
                id="license-key-text-format"
                keyFormat={keyFormat}
                className="text-sm text-muted-foreground"
              />
            )}
          </div>
          {add.error && <FormAlert>{errorSentence(add.error)}</FormAlert>}
          <FormActions
            onCancel={() => setOpen(false)}
            submitLabel="Add License Key"
            busyLabel="Adding..."
            busy={add.isPending}
          />
        </form>
      </Dialog>
    </>
  );
}
