import { parseArgs } from 'node:util';
import { ValidationError } from '@licensestore/domain';
import { BACK_OFFICE_ROLES } from '@licensestore/domain/back-office';
import { ConfigError, databaseUrlForTool, loadConfig } from '@licensestore/platform/config';
import { openDatabase } from '@licensestore/platform/db';
import { parseRequest } from '../http/validation.js';
import { migrateApi } from '../migrations/index.js';
import { createBackOfficeUser, type NewUser, newUserSchema } from './back-office-users.js';
import { generatePassword } from './passwords.js';

const USAGE = `usage: npm run users:add -- --username NAME --role ${BACK_OFFICE_ROLES.join('|')} [--password-stdin]

Adds a back-office user. Without --password-stdin a password is generated and printed once; it is stored only
as its hash. Works on DATABASE_URL, or on the store a running \`npm start\` serves.`;

/** Bad arguments: the usage and exit code 2, as the other CLIs of the repository. */
class UsageError extends Error {}

function readArguments(argv: string[]) {
  try {
    const { values } = parseArgs({
      args: argv,
      options: {
        username: { type: 'string' },
        role: { type: 'string' },
        'password-stdin': { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
      allowPositionals: false,
    });
    return values;
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

/** All of stdin, less the one line ending `echo` or a here-string adds. */
async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

async function main(argv: string[]): Promise<number> {
  const args = readArguments(argv);
  if (args.help) {
    console.log(USAGE);
    return 0;
  }
  if (args.username === undefined || args.role === undefined) {
    throw new UsageError('--username and --role are required');
  }
  const password = args['password-stdin'] ? await readStdin() : generatePassword();
  let user: NewUser;
  try {
    user = parseRequest(newUserSchema, { username: args.username, password, role: args.role });
  } catch (error) {
    if (error instanceof ValidationError) throw new UsageError(error.message);
    throw error;
  }

  const database = openDatabase(await databaseUrlForTool(loadConfig()), { max: 1 });
  try {
    // The api migrates at start; a store that has never run one gets the table here.
    await migrateApi(database.db);
    const created = await createBackOfficeUser(database.db, user);
    console.log(`Added ${created.role} "${created.username}" (${created.id}).`);
    if (!args['password-stdin']) {
      console.log(`Password (shown only this once): ${password}`);
    }
    return 0;
  } finally {
    await database.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof UsageError) {
      console.error(`${error.message}\n\n${USAGE}`);
      process.exit(2);
    }
    console.error(error instanceof Error ? error.message : error);
    process.exit(error instanceof ConfigError ? 2 : 1);
  },
);
