import { Seo } from '@/components/seo/seo';
import { ProductsScreen } from '@/features/admin/products/components/products-screen';

/** Admin Products: the catalogue, with create, edit (image upload included) and delete. */
export default function AdminProductsRoute() {
  return (
    <>
      <Seo title="Products" description="Manage your product catalog" noindex />
      <ProductsScreen />
    </>
  );
}
