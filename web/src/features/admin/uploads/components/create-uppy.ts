import AwsS3, { type AwsBody } from '@uppy/aws-s3';
import Uppy, { type Meta } from '@uppy/core';
import { requestUploadUrl } from '../api/object-uploads';

export type ImageUppy = Uppy<Meta, AwsBody>;

/** One image of at most 10 MB, started by the admin, not on selection. */
export const IMAGE_RESTRICTIONS = {
  maxNumberOfFiles: 1,
  allowedFileTypes: ['image/*'],
  maxFileSize: 10_485_760,
};

/**
 * An Uppy that PUTs the file straight to the URL POST /api/objects/upload signs (the app itself, or S3).
 * signRequest is @uppy/aws-s3 v6's replacement for getUploadParameters; the rest are the library's defaults.
 */
export function createImageUppy(): ImageUppy {
  return new Uppy<Meta, AwsBody>({ autoProceed: false, restrictions: IMAGE_RESTRICTIONS }).use(AwsS3, {
    // Multipart starts above 100 MB by default; a 10 MB image is always one PUT, which our storage accepts.
    shouldUseMultipart: false,
    signRequest: async (request) => {
      const contentType = 'contentType' in request ? request.contentType : undefined;
      return {
        url: await requestUploadUrl(),
        headers: contentType ? { 'Content-Type': contentType } : undefined,
      };
    },
  });
}
