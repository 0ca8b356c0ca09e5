// Route schemas are the shared zod schemas of src/shared/protocol.ts: Fastify validates a route's
// `schema.body` / `schema.querystring` with them (the parsed value replaces the raw one), and a
// refusal reaches the error handler as the ZodError it is, answered `invalid` with its sentence.
import type { FastifyInstance } from 'fastify';
import type { ZodType } from 'zod';

export function setupZodValidation(app: FastifyInstance): void {
  app.setValidatorCompiler(({ schema }) => (data: unknown) => {
    const parsed = (schema as ZodType).safeParse(data);
    return parsed.success ? { value: parsed.data } : { error: parsed.error };
  });
}
