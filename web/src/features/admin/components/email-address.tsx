/**
 * An email address that may wrap only before a dot or the @, never inside a word ("maximiliana.alexandra" /
 * "@example.org"), so a narrow column keeps every part of it whole. The text is the address itself.
 */
export function EmailAddress({ address }: { address: string }) {
  const parts = address.split(/(?=[.@])/);
  return (
    <span>
      {parts.map((part, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: an address's parts are its text, in order; they have no other id
        <span key={index}>
          {index > 0 && <wbr />}
          <span className="whitespace-nowrap">{part}</span>
        </span>
      ))}
    </span>
  );
}
