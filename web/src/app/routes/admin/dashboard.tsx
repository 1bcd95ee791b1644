// Built by the back-office issue's next step.
export default function Placeholder() {
  return <p className="p-8">Loading...</p>;
}
