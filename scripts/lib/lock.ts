import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export class DataDirInUseError extends Error {
  constructor(dataDir: string, pid: number) {
    super(
      `Another \`npm start\` (pid ${pid}) is using ${dataDir}.\n` +
        'Stop it, or run a second instance with its own DATA_DIR and PORT, e.g. DATA_DIR=/tmp/store2 PORT=5001 npm start',
    );
  }
}

/**
 * One `npm start` per DATA_DIR: a second one would find the first one's Postgres in the data directory. The pid
 * file is created exclusively; one left by a process that died is taken over.
 */
export async function lockDataDir(dataDir: string): Promise<{ release: () => Promise<void> }> {
  const file = join(dataDir, 'start.pid');
  for (;;) {
    try {
      await writeFile(file, `${process.pid}\n`, { flag: 'wx' });
      return { release: () => rm(file, { force: true }) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const pid = Number.parseInt(await readFile(file, 'utf8').catch(() => ''), 10);
    if (Number.isInteger(pid) && pid !== process.pid && isAlive(pid))
      throw new DataDirInUseError(dataDir, pid);
    await rm(file, { force: true });
  }
}

export const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};
