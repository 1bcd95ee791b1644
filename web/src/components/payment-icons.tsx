/** The four payment methods the storefront shows, drawn as simple labelled marks. */
const METHODS = [
  { name: 'Visa', label: 'VISA', className: 'bg-[#1a1f71] text-white italic' },
  { name: 'Mastercard', label: 'MC', className: 'bg-[#eb001b] text-white' },
  { name: 'American Express', label: 'AMEX', className: 'bg-[#2e77bc] text-white' },
  { name: 'PayPal', label: 'PayPal', className: 'bg-[#ffc439] text-[#003087] italic' },
] as const;

export function PaymentIcons({ className = '' }: { className?: string }) {
  return (
    <ul aria-label="Accepted payment methods" className={`flex flex-wrap items-center gap-2 ${className}`}>
      {METHODS.map((method) => (
        <li
          key={method.name}
          title={method.name}
          className={`flex h-7 min-w-12 items-center justify-center rounded px-2 text-xs font-extrabold tracking-tight ${method.className}`}
        >
          <span aria-hidden="true">{method.label}</span>
          <span className="sr-only">{method.name}</span>
        </li>
      ))}
    </ul>
  );
}
