import { ErrorEnvelope, Meta, Pagination, Problem } from './envelope.contract';

/**
 * The envelope's shared schemas, components of the OpenAPI document. The contract's records are
 * their areas' (each a `<record>.contract.ts` of its area, named by its module's `schemas`), and
 * follow them there (`SHARED_SCHEMAS` of src/modules.ts).
 */
export const ENVELOPE_SCHEMAS = [Pagination, Meta, Problem, ErrorEnvelope];
