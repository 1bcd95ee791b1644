// The part of s3rver's API the S3 shipping tests use; the package ships no types of its own.
declare module 's3rver' {
  import type { AddressInfo } from 'node:net';

  interface S3rverOptions {
    address?: string;
    /** 0 takes a free port; `run()` gives the one taken. */
    port?: number;
    silent?: boolean;
    /** Where the buckets' objects are kept on disk. */
    directory: string;
    configureBuckets?: { name: string; configs?: string[] }[];
  }

  export default class S3rver {
    constructor(options: S3rverOptions);
    run(): Promise<AddressInfo>;
    close(): Promise<void>;
  }
}
