// The recovery drill at a small size: a store built, backed up (full, then increments while shoppers buy),
// destroyed, restored and compared, and the restored store selling the next key; then the same on top of a
// generated history, as BENCH_SCALE asks for one.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

function runDrill(
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/backup/drill.ts'], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('npm run recovery:drill', () => {
  it('passes every check at a small size, and says so on its last line', async () => {
    const { code, stdout, stderr } = await runDrill({ DRILL_ORDERS: '12', DRILL_SHOPPERS: '4' });
    const lines = stdout.trim().split('\n');
    const last = lines.at(-1) ?? '';
    const checks = lines.filter((line) => /^[✓✗] /.test(line));
    expect(
      checks.filter((line) => line.startsWith('✗')),
      `${stdout}\n${stderr}`,
    ).toEqual([]);
    expect(checks.length).toBeGreaterThan(20);
    expect(last).toBe(`recovery drill: ${checks.length} of ${checks.length} checks`);
    expect(code).toBe(0);
  }, 600_000);

  it('passes every check on top of a generated history at a BENCH_SCALE, and names its size first', async () => {
    const { code, stdout, stderr } = await runDrill({
      BENCH_SCALE: '300',
      DRILL_ORDERS: '8',
      DRILL_SHOPPERS: '4',
    });
    const lines = stdout.trim().split('\n');
    const checks = lines.filter((line) => /^[✓✗] /.test(line));
    expect(
      checks.filter((line) => line.startsWith('✗')),
      `${stdout}\n${stderr}`,
    ).toEqual([]);
    expect(lines[0]).toMatch(/^recovery drill at BENCH_SCALE=300 .*a generated history of 300 orders/);
    expect(stdout).toMatch(/✓ read model orders: 308 rows equal/);
    expect(stderr).toMatch(/recovery drill: restore \(.*\): \d+\.\d s/);
    expect(lines.at(-1)).toBe(`recovery drill: ${checks.length} of ${checks.length} checks`);
    expect(code).toBe(0);
  }, 600_000);
});
