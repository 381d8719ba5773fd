/**
 * The subset of OpenAPI 3.1 object shapes that Vigil's hand-written document uses. Schemas are JSON Schema
 * draft 2020-12 (OpenAPI 3.1's dialect), kept as plain keyword maps.
 */
export type JsonSchema = { [keyword: string]: unknown };

/** A type alias rather than an interface so that a reference can also stand where a JSON Schema is expected. */
export type ReferenceObject = {
  $ref: string;
  summary?: string;
  description?: string;
};

export interface ExampleObject {
  summary?: string;
  description?: string;
  value: unknown;
}

export interface MediaTypeObject {
  schema?: JsonSchema;
  examples?: Record<string, ExampleObject>;
}

export interface HeaderObject {
  description?: string;
  required?: boolean;
  schema: JsonSchema;
}

export interface ParameterObject {
  name: string;
  in: 'query' | 'header' | 'path' | 'cookie';
  description?: string;
  required?: boolean;
  deprecated?: boolean;
  schema: JsonSchema;
  examples?: Record<string, ExampleObject>;
}

export interface RequestBodyObject {
  description?: string;
  required?: boolean;
  content: Record<string, MediaTypeObject>;
}

export interface ResponseObject {
  description: string;
  headers?: Record<string, HeaderObject | ReferenceObject>;
  content?: Record<string, MediaTypeObject>;
}

/** Maps a security scheme name to the scopes it needs (always empty for HTTP Basic). */
export type SecurityRequirementObject = Record<string, string[]>;

export interface OperationObject {
  operationId: string;
  summary: string;
  description?: string;
  tags?: string[];
  deprecated?: boolean;
  /** `[]` marks an operation that needs no credentials. */
  security?: SecurityRequirementObject[];
  parameters?: (ParameterObject | ReferenceObject)[];
  requestBody?: RequestBodyObject | ReferenceObject;
  responses: Record<string, ResponseObject | ReferenceObject>;
}

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

export type PathItemObject = {
  summary?: string;
  description?: string;
  parameters?: (ParameterObject | ReferenceObject)[];
} & Partial<Record<HttpMethod, OperationObject>>;

export interface SecuritySchemeObject {
  type: 'http' | 'apiKey' | 'oauth2' | 'openIdConnect' | 'mutualTLS';
  scheme?: string;
  description?: string;
}

export interface ComponentsObject {
  schemas: Record<string, JsonSchema>;
  parameters: Record<string, ParameterObject>;
  headers: Record<string, HeaderObject>;
  requestBodies: Record<string, RequestBodyObject>;
  responses: Record<string, ResponseObject>;
  securitySchemes: Record<string, SecuritySchemeObject>;
}

export interface TagObject {
  name: string;
  description?: string;
}

export interface OpenApiDocument {
  openapi: '3.1.0';
  info: {
    title: string;
    version: string;
    summary?: string;
    description?: string;
    license?: { name: string; identifier?: string; url?: string };
  };
  jsonSchemaDialect?: string;
  servers?: { url: string; description?: string }[];
  security?: SecurityRequirementObject[];
  tags?: TagObject[];
  paths: Record<string, PathItemObject>;
  components: ComponentsObject;
}
