import { allProjectorDescriptors } from '@licensestore/platform/readmodel';
import { describe, expect, it } from 'vitest';
import { allProjectors } from './projectors.js';

describe('The projectors', () => {
  it('are exactly the ones the other roles know, by name and version, in the same order', () => {
    expect(allProjectors.map(({ name, version }) => ({ name, version }))).toEqual(allProjectorDescriptors);
  });
});
