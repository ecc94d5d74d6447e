// The shapes the OpenAPI document is built from, apart from the modules that build it, so that none of
// them imports another only for a type (which made two import cycles).

export type JsonSchema = Record<string, unknown>;

export interface OpenApiResponse {
  description: string;
  headers?: Record<string, unknown>;
  content?: Record<string, { schema: JsonSchema; examples?: Record<string, { value: unknown }> }>;
}
