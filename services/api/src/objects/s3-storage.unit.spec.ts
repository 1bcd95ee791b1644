import { describe, expect, it } from 'vitest';
import { S3ObjectStorage } from './s3-storage.js';

// Signing is local computation; reads and writes need a real bucket, which these tests do not have.
const credentials = { accessKeyId: 'AKIAEXAMPLE', secretAccessKey: 'example-secret-access-key' };
const ID = '3f2b8c1e-9d4a-4c7b-8e6f-1a2b3c4d5e6f';
const inFifteenMinutes = () => new Date(Date.now() + 15 * 60 * 1000);

describe('S3ObjectStorage', () => {
  describe('on AWS', () => {
    const storage = new S3ObjectStorage({ bucket: 'store-images', region: 'eu-west-1', credentials });

    it('presigns a PUT of uploads/<id> for 15 minutes', async () => {
      const url = new URL(await storage.createUploadUrl(ID, inFifteenMinutes()));
      expect(url.origin).toBe('https://store-images.s3.eu-west-1.amazonaws.com');
      expect(url.pathname).toBe(`/uploads/${ID}`);
      expect(url.searchParams.get('X-Amz-Expires')).toBe('900');
      expect(url.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
      expect(url.searchParams.get('X-Amz-Credential')).toMatch(/^AKIAEXAMPLE\/\d{8}\/eu-west-1\/s3\//);
    });

    it('knows its own upload URLs, with or without the query string, and no one else’s', async () => {
      const url = new URL(await storage.createUploadUrl(ID, inFifteenMinutes()));
      expect(await storage.objectIdOfUploadUrl(url)).toBe(ID);
      expect(await storage.objectIdOfUploadUrl(new URL(url.pathname, url.origin))).toBe(ID);
      expect(
        await storage.objectIdOfUploadUrl(new URL(`https://other.s3.eu-west-1.amazonaws.com/uploads/${ID}`)),
      ).toBeNull();
      expect(await storage.objectIdOfUploadUrl(new URL(`${url.origin}/elsewhere/${ID}`))).toBeNull();
      expect(await storage.objectIdOfUploadUrl(new URL(`${url.origin}/uploads/../secrets`))).toBeNull();
    });
  });

  describe('on an S3-compatible endpoint', () => {
    const storage = new S3ObjectStorage({
      bucket: 'images',
      region: 'auto',
      endpoint: 'https://minio.internal:9000',
      credentials,
    });

    it('addresses the bucket path-style', async () => {
      const url = new URL(await storage.createUploadUrl(ID, inFifteenMinutes()));
      expect(`${url.origin}${url.pathname}`).toBe(`https://minio.internal:9000/images/uploads/${ID}`);
      expect(await storage.objectIdOfUploadUrl(url)).toBe(ID);
    });
  });
});
