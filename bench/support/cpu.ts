import { readdirSync, readFileSync } from 'node:fs';

/** Linux reports process times in clock ticks; USER_HZ is 100 on every mainstream kernel build. */
const TICKS_PER_SECOND = 100;

/** A process whose CPU time is counted, with its descendants (a role's helpers) or alone. */
export interface Counted {
  name: string;
  pid: number;
  descendants: boolean;
}

/** CPU seconds used so far by the machine (busy time over all cores) and by each counted process. */
export interface CpuSnapshot {
  machine: number;
  counted: Map<string, number>;
}

interface ProcessTimes {
  parent: number;
  /** Its own user and system time. */
  ticks: number;
  /** Of its children that ended and that it waited for (a Postgres backend that closed, say). */
  reaped: number;
}

function readProcesses(): Map<number, ProcessTimes> {
  const processes = new Map<number, ProcessTimes>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // The command name (field 2) may contain spaces; the fields after its closing parenthesis do not.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      processes.set(Number(entry), {
        parent: Number(fields[1]),
        ticks: Number(fields[11]) + Number(fields[12]),
        reaped: Number(fields[13]) + Number(fields[14]),
      });
    } catch {
      // The process ended while we looked.
    }
  }
  return processes;
}

/** Busy time of all cores: user, nice, system, irq, softirq and steal (not idle, not iowait). */
function machineBusySeconds(): number {
  const counters = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '').trim().split(/\s+/).slice(1);
  const busy = [0, 1, 2, 5, 6, 7].reduce((sum, index) => sum + Number(counters[index] ?? 0), 0);
  return busy / TICKS_PER_SECOND;
}

export function cpuSnapshot(counted: Counted[]): CpuSnapshot {
  const processes = readProcesses();
  const children = new Map<number, number[]>();
  for (const [pid, { parent }] of processes) children.set(parent, [...(children.get(parent) ?? []), pid]);
  const ticks = (pid: number, descendants: boolean): number => {
    const own = processes.get(pid);
    if (!descendants) return own?.ticks ?? 0;
    const living = (children.get(pid) ?? []).reduce((sum, child) => sum + ticks(child, true), 0);
    return (own?.ticks ?? 0) + (own?.reaped ?? 0) + living;
  };
  return {
    machine: machineBusySeconds(),
    counted: new Map(counted.map((c) => [c.name, ticks(c.pid, c.descendants) / TICKS_PER_SECOND])),
  };
}

/** Milliseconds of CPU per unit of work between two snapshots: each counted process, the rest, and the total. */
export function cpuPerUnit(before: CpuSnapshot, after: CpuSnapshot, units: number) {
  const perUnit = new Map<string, number>();
  let attributed = 0;
  for (const [name, seconds] of after.counted) {
    const used = seconds - (before.counted.get(name) ?? 0);
    attributed += used;
    perUnit.set(name, (used * 1000) / units);
  }
  const machine = after.machine - before.machine;
  perUnit.set('the rest (Postgres, Redis, OS)', ((machine - attributed) * 1000) / units);
  return { perUnit, totalMs: (machine * 1000) / units };
}
