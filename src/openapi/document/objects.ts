/**
 * The objects of a dereferenced OpenAPI 3.0 or 3.1 document, as the mock and the suite walk them:
 * the fields they read, typed as OpenAPI states them, and every other field (an extension such as
 * `x-sunset`, a field nobody reads) as `unknown`, so a reader narrows what it takes. After loading,
 * no `$ref` remains outside schemas (a circular one stays inside a schema: see `resolveRef`).
 *
 * The document was validated against its meta-schema when it was loaded, but documents come from
 * strangers and a validator may be lenient: code that would crash on a wrong shape still checks it.
 * The types users pass in (`createMock({ document })`) are openapi-types' (openapi.ts).
 */
import type { SchemaObject } from './schema.js';

export type { JsonObject } from '../../core/json-object.js';

/** Fields a document object may carry beyond the ones typed: extensions, mostly. */
interface Open {
  [field: string]: unknown;
}

export interface ServerObject extends Open {
  url: string;
  description?: string;
  variables?: Record<string, { default: string; enum?: string[]; description?: string }>;
}

export interface ExampleObject extends Open {
  summary?: string;
  description?: string;
  value?: unknown;
}

export interface MediaTypeObject extends Open {
  schema?: SchemaObject;
  example?: unknown;
  examples?: Record<string, ExampleObject>;
}

export interface HeaderObject extends Open {
  description?: string;
  required?: boolean;
  deprecated?: boolean;
  schema?: SchemaObject;
  content?: Record<string, MediaTypeObject>;
}

export interface ParameterObject extends Omit<HeaderObject, 'required'> {
  name: string;
  in: string;
  required?: boolean;
  style?: string;
  explode?: boolean;
  allowReserved?: boolean;
  example?: unknown;
  examples?: Record<string, ExampleObject>;
}

export interface RequestBodyObject extends Open {
  description?: string;
  required?: boolean;
  content?: Record<string, MediaTypeObject>;
}

export interface ResponseObject extends Open {
  description?: string;
  headers?: Record<string, HeaderObject>;
  content?: Record<string, MediaTypeObject>;
  links?: Record<string, unknown>;
}

/** Scheme names to the scopes they need: one requirement; a list of them are alternatives. */
export type SecurityRequirementObject = Record<string, string[]>;

export interface OAuthFlowObject extends Open {
  authorizationUrl?: string;
  tokenUrl?: string;
  refreshUrl?: string;
  scopes?: Record<string, string>;
}

/** A Security Scheme Object, by its `type` (the meta-schema allows no other). */
export type SecuritySchemeObject = ApiKeySchemeObject | HttpSchemeObject | OAuth2SchemeObject | OpenIdConnectSchemeObject | MutualTlsSchemeObject;

export interface ApiKeySchemeObject extends Open {
  type: 'apiKey';
  description?: string;
  /** The header, query parameter or cookie that carries the key. */
  name: string;
  in: 'header' | 'query' | 'cookie';
}

export interface HttpSchemeObject extends Open {
  type: 'http';
  description?: string;
  /** `bearer`, `basic`... (case-insensitive, as HTTP authentication schemes are). */
  scheme: string;
  bearerFormat?: string;
}

export interface OAuth2SchemeObject extends Open {
  type: 'oauth2';
  description?: string;
  flows: Partial<Record<'implicit' | 'password' | 'clientCredentials' | 'authorizationCode', OAuthFlowObject>>;
}

export interface OpenIdConnectSchemeObject extends Open {
  type: 'openIdConnect';
  description?: string;
  openIdConnectUrl: string;
}

/** 3.1 */
export interface MutualTlsSchemeObject extends Open {
  type: 'mutualTLS';
  description?: string;
}

export interface ExternalDocumentationObject extends Open {
  url: string;
  description?: string;
}

export interface OperationObject extends Open {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: ParameterObject[];
  requestBody?: RequestBodyObject;
  responses?: Record<string, ResponseObject>;
  security?: SecurityRequirementObject[];
  deprecated?: boolean;
  servers?: ServerObject[];
  externalDocs?: ExternalDocumentationObject;
}

export interface PathItemObject extends Open {
  summary?: string;
  description?: string;
  parameters?: ParameterObject[];
  servers?: ServerObject[];
  get?: OperationObject;
  put?: OperationObject;
  post?: OperationObject;
  delete?: OperationObject;
  options?: OperationObject;
  head?: OperationObject;
  patch?: OperationObject;
  trace?: OperationObject;
}

export interface ComponentsObject extends Open {
  schemas?: Record<string, SchemaObject>;
  responses?: Record<string, ResponseObject>;
  parameters?: Record<string, ParameterObject>;
  examples?: Record<string, ExampleObject>;
  requestBodies?: Record<string, RequestBodyObject>;
  headers?: Record<string, HeaderObject>;
  securitySchemes?: Record<string, SecuritySchemeObject>;
}

export interface InfoObject extends Open {
  title: string;
  version: string;
  description?: string;
  summary?: string;
}

/** A dereferenced OpenAPI 3.0 or 3.1 document (a Swagger 2.0 one is converted to 3.0 on load). */
export interface DocumentObject extends Open {
  openapi: string;
  info: InfoObject;
  servers?: ServerObject[];
  paths?: Record<string, PathItemObject>;
  /** 3.1 */
  webhooks?: Record<string, PathItemObject>;
  components?: ComponentsObject;
  security?: SecurityRequirementObject[];
  tags?: Array<{ name: string; description?: string; externalDocs?: ExternalDocumentationObject } & Open>;
  externalDocs?: ExternalDocumentationObject;
}
