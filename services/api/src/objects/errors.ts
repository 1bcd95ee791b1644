import { AppError } from '@licensestore/domain';

export class PayloadTooLargeError extends AppError {
  constructor(message: string) {
    super(413, message);
  }
}

export class UnsupportedMediaTypeError extends AppError {
  constructor(message: string) {
    super(415, message);
  }
}

export const notAnImage = () =>
  new UnsupportedMediaTypeError('The file is not a PNG, JPEG, GIF or WebP image');

export const tooLarge = (maxBytes: number) =>
  new PayloadTooLargeError(`The file is larger than ${maxBytes} bytes (10 MB)`);
