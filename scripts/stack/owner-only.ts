import { chmod, mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Makes `dir` (created when missing) and whatever is already in it this user's alone: 0700 directories, 0600 files.
 * For data that holds secrets (sessions in Redis's append-only file) written before it was kept private.
 */
export async function makeOwnerOnly(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await chmod(dir, 0o700);
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isSymbolicLink()) continue;
    await chmod(join(entry.parentPath, entry.name), entry.isDirectory() ? 0o700 : 0o600);
  }
}
