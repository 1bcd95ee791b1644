import type { z } from 'zod';

/**
 * The fields of a zod object that parses exactly one view: a schema for every field of `View` (none missing, none
 * extra, each parsing to that field's type), so a view that gains, loses or changes a field breaks its schema at
 * compile time instead of being stripped or let through at run time.
 */
export type ViewShape<View> = { [Field in keyof View]-?: z.ZodType<View[Field]> };
