import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, readFile, stat } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { type Config, ConfigError } from '@licensestore/platform/config';
import { z } from 'zod';
import { PART_NAME, wholePartNames } from './follow.js';
import { BackupRefusedError, MANIFEST_FILE } from './format.js';

/** Where backup parts go in S3: `s3://BUCKET/PREFIX`, each part under `PREFIX/<part name>/`. */
export interface S3Location {
  bucket: string;
  /** Without leading or trailing slashes; empty for the bucket's top level. */
  prefix: string;
}

/** How to reach the S3 service the parts go to, as the image storage is reached. */
export interface S3Connection {
  region: string;
  /** An S3-compatible service (MinIO, R2, …), addressed path-style; unset is AWS. */
  endpoint?: string | undefined;
  /** Unset uses the AWS SDK's default credential chain (environment, instance role). */
  credentials?: { accessKeyId: string; secretAccessKey: string } | undefined;
}

const S3_URL = /^s3:\/\/([^/]+)\/?(.*)$/;

export const isS3Url = (text: string) => text.startsWith('s3://');

/** `s3://BUCKET/PREFIX` as a location; a usage mistake is named, not guessed at. */
export function parseS3Url(text: string): S3Location {
  const match = S3_URL.exec(text);
  const prefix = (match?.[2] ?? '').replace(/\/+$/, '');
  if (!match?.[1] || prefix.split('/').some((segment, index) => segment === '' && index > 0)) {
    throw new BackupRefusedError(`${text}: not an S3 location (s3://BUCKET or s3://BUCKET/PREFIX)`);
  }
  return { bucket: match[1], prefix };
}

export const s3Url = (location: S3Location) =>
  `s3://${location.bucket}${location.prefix ? `/${location.prefix}` : ''}`;

const optionalString = z
  .string()
  .trim()
  .transform((value) => (value === '' ? undefined : value))
  .optional();

const backupS3Schema = z
  .object({
    BACKUP_S3_ENDPOINT: optionalString.pipe(z.url({ protocol: /^https?$/ }).optional()),
    BACKUP_S3_REGION: optionalString,
    BACKUP_S3_ACCESS_KEY_ID: optionalString,
    BACKUP_S3_SECRET_ACCESS_KEY: optionalString,
  })
  .refine(
    (env) => (env.BACKUP_S3_ACCESS_KEY_ID === undefined) === (env.BACKUP_S3_SECRET_ACCESS_KEY === undefined),
    {
      path: ['BACKUP_S3_SECRET_ACCESS_KEY'],
      message: 'BACKUP_S3_ACCESS_KEY_ID and BACKUP_S3_SECRET_ACCESS_KEY go together: set both or neither',
    },
  );

/**
 * The S3 service backups go to: BACKUP_S3_ENDPOINT, BACKUP_S3_REGION and BACKUP_S3_ACCESS_KEY_ID with
 * BACKUP_S3_SECRET_ACCESS_KEY when any of them is set, else the one the store keeps its images in (S3_ENDPOINT,
 * S3_REGION, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY). The two are taken whole, never mixed, so that backups can go
 * to another service than the images without inheriting its endpoint or keys.
 */
export function backupS3Connection(config: Config, env: NodeJS.ProcessEnv = process.env): S3Connection {
  const parsed = backupS3Schema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`));
  }
  const own = parsed.data;
  const credentials = (accessKeyId: string | undefined, secretAccessKey: string | undefined) =>
    accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey } : undefined;
  if (Object.values(own).some((value) => value !== undefined)) {
    return {
      region: own.BACKUP_S3_REGION ?? 'us-east-1',
      endpoint: own.BACKUP_S3_ENDPOINT,
      credentials: credentials(own.BACKUP_S3_ACCESS_KEY_ID, own.BACKUP_S3_SECRET_ACCESS_KEY),
    };
  }
  return {
    region: config.S3_REGION,
    endpoint: config.S3_ENDPOINT,
    credentials: credentials(config.S3_ACCESS_KEY_ID, config.S3_SECRET_ACCESS_KEY),
  };
}

export const s3Client = (connection: S3Connection) =>
  new S3Client({
    region: connection.region,
    endpoint: connection.endpoint,
    forcePathStyle: connection.endpoint !== undefined,
    credentials: connection.credentials,
    // Checksums only where S3 requires them: the SDK's default wraps a streamed upload in aws-chunked framing with a
    // trailing checksum, which not every S3-compatible service understands (some store the framing as the object).
    // The parts need no more: a restore checks every file against the SHA-256 its manifest records.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });

const keyOf = (location: S3Location, ...segments: string[]) =>
  [location.prefix, ...segments].filter((segment) => segment !== '').join('/');

/** Every file under a part's directory, as paths relative to it with `/` between segments. */
async function filesOf(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)).split(sep).join('/'))
    .sort();
}

/**
 * The whole parts (those whose manifest is there) under the location, by name, each with the keys of its files
 * relative to the part. An object under a part's name that is not a part's file (`..`, empty segments) is ignored.
 */
async function remoteParts(client: S3Client, location: S3Location): Promise<Map<string, string[]>> {
  const base = keyOf(location, '');
  const prefix = base === '' ? '' : `${base}/`;
  const files = new Map<string, string[]>();
  let token: string | undefined;
  do {
    const page = await client.send(
      new ListObjectsV2Command({ Bucket: location.bucket, Prefix: prefix, ContinuationToken: token }),
    );
    for (const { Key } of page.Contents ?? []) {
      const [name = '', ...rest] = (Key ?? '').slice(prefix.length).split('/');
      if (!PART_NAME.test(name) || rest.length === 0) continue;
      if (rest.some((segment) => segment === '' || segment === '.' || segment === '..')) continue;
      files.set(name, [...(files.get(name) ?? []), rest.join('/')]);
    }
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  return new Map([...files].filter(([, paths]) => paths.includes(MANIFEST_FILE)).sort());
}

const bodyText = async (client: S3Client, bucket: string, key: string) => {
  const object = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
  return (await object.Body?.transformToString('utf8')) ?? '';
};

/**
 * Ships the whole parts of a folder `backup --follow` keeps to an S3 location, in order: each file of a part, then
 * its manifest, so that a part is in the bucket only once all of it is (a part without its manifest is not a part).
 * A part counts as shipped once its manifest is in the bucket. A part that fails stops the pass, so no part is ever
 * shipped before the ones before it; the next pass goes on from it. One folder per location: a part of the same name
 * already in the bucket must be this folder's (same manifest), else the pass refuses rather than mix two backups.
 */
export class S3Shipper {
  /** The parts the bucket held when it was first listed: shipped by an earlier run, or another backup's. */
  #listed: Set<string> | null = null;
  /** The parts known to be this folder's and in the bucket. */
  readonly #shipped = new Set<string>();

  constructor(
    private readonly client: S3Client,
    readonly location: S3Location,
  ) {}

  /** Ships the folder's parts not yet in the bucket and gives their names, in the order they were shipped. */
  async shipPending(folder: string): Promise<string[]> {
    this.#listed ??= new Set((await remoteParts(this.client, this.location)).keys());
    const listed = this.#listed;
    const pending = (await wholePartNames(folder)).filter((name) => !this.#shipped.has(name));
    const already = pending.filter((name) => listed.has(name));
    const newest = already.at(-1);
    if (newest !== undefined) {
      // Parts are numbered in the order they were taken: the newest one in common decides for those before it.
      const key = keyOf(this.location, newest, MANIFEST_FILE);
      const theirs = await bodyText(this.client, this.location.bucket, key);
      const ours = await readFile(join(folder, newest, MANIFEST_FILE), 'utf8');
      if (theirs !== ours) {
        throw new BackupRefusedError(
          `${s3Url(this.location)}/${newest} is another backup's part than ${join(folder, newest)}: ship each ` +
            'folder to a location of its own',
        );
      }
      for (const name of already) this.#shipped.add(name);
    }
    const done: string[] = [];
    for (const name of pending.filter((candidate) => !this.#shipped.has(candidate))) {
      await this.#shipPart(join(folder, name), name);
      this.#shipped.add(name);
      done.push(name);
    }
    return done;
  }

  async #shipPart(dir: string, name: string): Promise<void> {
    const files = await filesOf(dir);
    for (const path of [...files.filter((file) => file !== MANIFEST_FILE), MANIFEST_FILE]) {
      const file = join(dir, ...path.split('/'));
      await this.client.send(
        new PutObjectCommand({
          Bucket: this.location.bucket,
          Key: keyOf(this.location, name, path),
          Body: createReadStream(file),
          ContentLength: (await stat(file)).size,
        }),
      );
    }
  }
}

/**
 * Downloads the backup at an S3 location into `into` as a folder of parts, for a restore to read as it reads a
 * folder `backup --follow` keeps: the whole parts only (those whose manifest is in the bucket), from the last full
 * one on. Gives the names of the parts downloaded; the restore checks them as any other.
 */
export async function downloadBackup(
  client: S3Client,
  location: S3Location,
  into: string,
): Promise<string[]> {
  const parts = [...(await remoteParts(client, location))];
  const lastFull = parts.findLastIndex(([name]) => name.endsWith('-full'));
  const taken = lastFull === -1 ? parts : parts.slice(lastFull);
  if (taken.length === 0) throw new BackupRefusedError(`${s3Url(location)} holds no backup`);
  for (const [name, paths] of taken) {
    for (const path of [...paths.filter((file) => file !== MANIFEST_FILE), MANIFEST_FILE]) {
      const file = join(into, name, ...path.split('/'));
      await mkdir(dirname(file), { recursive: true, mode: 0o700 });
      const object = await client.send(
        new GetObjectCommand({ Bucket: location.bucket, Key: keyOf(location, name, path) }),
      );
      await pipeline(object.Body as Readable, createWriteStream(file, { mode: 0o600 }));
    }
  }
  return taken.map(([name]) => name);
}
