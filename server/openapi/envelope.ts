import { z } from 'zod';

/** Success, as the spec has every answer: `code === 1` and the data. */
export function success<T>(data: T): { code: 1; message: 'ok'; data: T } {
  return { code: 1, message: 'ok', data };
}

/** The document's shape of a successful answer around `data`. */
export const zSuccess = <T extends z.ZodType>(data: T) =>
  z.object({ code: z.literal(1), message: z.string(), data });

/** What a refusal says besides its HTTP status: a stable type, and for bad input the fields. */
export const API_ERROR_TYPES = [
  'invalid_input',
  'unauthorized',
  'forbidden',
  'not_found',
  'conflict',
  'too_many_requests',
  'payload_too_large',
  'internal',
] as const;
export type ApiErrorType = (typeof API_ERROR_TYPES)[number];

export const zFailure = z
  .object({
    code: z.number().int().meta({ description: 'The HTTP status; never 1.' }),
    message: z.string().meta({ description: "The reason, in the caller's language." }),
    data: z.null(),
    error: z.object({
      type: z.enum(API_ERROR_TYPES),
      fields: z
        .array(z.object({ path: z.string(), message: z.string() }))
        .optional()
        .meta({ description: 'For invalid input: each refused field (a dotted path) and why.' }),
      upgrade: z.string().optional().meta({
        description: "For a feature the account's membership lacks: the path of the membership page.",
      }),
    }),
  })
  .meta({ id: 'Failure' });
export type Failure = z.infer<typeof zFailure>;
