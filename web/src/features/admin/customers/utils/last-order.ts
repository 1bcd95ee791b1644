/** A customer's last order date in the viewer's locale, or 'N/A' when unreadable. */
export const lastOrder = (iso: string) => {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? 'N/A' : date.toLocaleDateString();
};
