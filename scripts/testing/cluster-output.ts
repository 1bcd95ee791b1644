// Reading what a cluster's processes print (`label | {json log line}`), for tests that must know which instance
// of a role is the active one, or whether an instance has said something.
interface LogLine {
  label: string;
  msg: string;
  fields: Record<string, unknown>;
}

function parse(line: string): LogLine | null {
  const bar = line.indexOf(' | ');
  if (bar < 0) return null;
  try {
    const fields = JSON.parse(line.slice(bar + 3)) as Record<string, unknown>;
    const { msg } = fields;
    return typeof msg === 'string' ? { label: line.slice(0, bar).trim(), msg, fields } : null;
  } catch {
    return null; // not a JSON log line
  }
}

/** The instance of `role` (e.g. `projections-2`) that last logged `msg` (default `active`). */
export function activeInstance(output: readonly string[], role: string, msg = 'active'): string {
  for (let i = output.length - 1; i >= 0; i--) {
    const line = parse(output[i] as string);
    if (line?.msg === msg && line.label.startsWith(`${role}-`)) return line.label;
  }
  throw new Error(`no ${role} instance has logged '${msg}'`);
}

/** Whether `label` has logged `msg` at or after output line `from`. */
export const hasLogged = (output: readonly string[], from: number, label: string, msg: string): boolean =>
  output.slice(from).some((text) => {
    const line = parse(text);
    return line?.label === label && line.msg === msg;
  });

/** How many times any instance logged `msg` with each value of `field`. */
export function countLoggedBy(output: readonly string[], msg: string, field: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const text of output) {
    const line = parse(text);
    const value = line?.msg === msg ? line.fields[field] : undefined;
    if (typeof value === 'string') counts.set(value, (counts.get(value) ?? 0) + 1);
  }
  return counts;
}
