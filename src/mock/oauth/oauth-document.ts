/**
 * What a document asks of an authorization server: its oauth2 schemes' flows and scopes, its
 * openIdConnect schemes, and the scopes its operations require of them. The mock's own server
 * (src/mock/oauth/oauth-server.ts) serves those flows, grants those scopes and no others.
 */
import type { DocumentObject, SecuritySchemeObject } from '../../openapi/document/objects.js';
import type { Operation } from '../../openapi/operations/operation.js';
import { documentOAuthPaths, type DocumentOAuthPath, type DocumentOAuthUrl } from './document-oauth-paths.js';
import { OAUTH_ENDPOINTS } from './oauth-paths.js';

/** The grant types of RFC 6749 (and the refresh), as the token endpoint names them. */
export type GrantType = 'authorization_code' | 'implicit' | 'client_credentials' | 'password' | 'refresh_token';

/** The scopes OpenID Connect defines (Core 1.0, section 5.4), and `offline_access` (section 11). */
export const OPENID_SCOPES = ['openid', 'profile', 'email', 'address', 'phone', 'offline_access'] as const;

export interface OAuthScheme {
  name: string;
  type: 'oauth2' | 'openIdConnect';
  /** The URLs the document gives for it (its identity provider's): tokenUrl, authorizationUrl, refreshUrl, openIdConnectUrl. */
  urls: string[];
}

export interface OAuthDeclaration {
  schemes: OAuthScheme[];
  /** The grants the document's flows name (all of them once an openIdConnect scheme is declared: its provider's discovery would say). */
  grants: ReadonlySet<GrantType>;
  /** The scopes the mock grants: the flows' scopes, those the operations require, and OpenID Connect's with an openIdConnect scheme. */
  scopes: ReadonlySet<string>;
  /** An openIdConnect scheme is declared: id tokens, userinfo, discovery. */
  openId: boolean;
  /** The document's own token, authorization and discovery URLs on the API's origin, served beside /__oauth (./document-oauth-paths.ts). */
  documentPaths: DocumentOAuthPath[];
  /** Sentences for the start: a document URL an operation of the document answers instead. */
  warnings: string[];
}

const FLOW_GRANTS: Record<string, GrantType[]> = {
  authorizationCode: ['authorization_code', 'refresh_token'],
  implicit: ['implicit'],
  password: ['password', 'refresh_token'],
  clientCredentials: ['client_credentials'],
};

/**
 * The document's oauth2 and openIdConnect schemes, or undefined when it declares none.
 *
 * @example oauthDeclaration(api, operations)?.grants.has('client_credentials')
 */
export function oauthDeclaration(api: DocumentObject, operations: readonly Operation[]): OAuthDeclaration | undefined {
  const schemes: OAuthScheme[] = [];
  const grants = new Set<GrantType>();
  const scopes = new Set<string>();
  const served: DocumentOAuthUrl[] = [];
  let openId = false;
  for (const [name, scheme] of Object.entries(api.components?.securitySchemes ?? {})) {
    if (!isOAuth(scheme)) continue;
    if (scheme.type === 'openIdConnect') {
      openId = true;
      const url = scheme.openIdConnectUrl;
      if (typeof url === 'string') served.push({ url, endpoint: OAUTH_ENDPOINTS.openIdConfiguration, where: `${name}.openIdConnectUrl` });
      schemes.push({ name, type: 'openIdConnect', urls: typeof url === 'string' ? [url] : [] });
      continue;
    }
    const urls: string[] = [];
    for (const [flowName, flow] of Object.entries(scheme.flows ?? {})) {
      if (!flow || typeof flow !== 'object') continue;
      for (const grant of FLOW_GRANTS[flowName] ?? []) grants.add(grant);
      for (const scope of Object.keys(flow.scopes ?? {})) scopes.add(scope);
      for (const url of [flow.authorizationUrl, flow.tokenUrl, flow.refreshUrl]) if (typeof url === 'string' && !urls.includes(url)) urls.push(url);
      const where = (field: string) => `${name}.flows.${flowName}.${field}`;
      if (typeof flow.authorizationUrl === 'string') served.push({ url: flow.authorizationUrl, endpoint: OAUTH_ENDPOINTS.authorize, where: where('authorizationUrl') });
      if (typeof flow.tokenUrl === 'string') served.push({ url: flow.tokenUrl, endpoint: OAUTH_ENDPOINTS.token, where: where('tokenUrl') });
      if (typeof flow.refreshUrl === 'string') served.push({ url: flow.refreshUrl, endpoint: OAUTH_ENDPOINTS.token, where: where('refreshUrl') });
    }
    schemes.push({ name, type: 'oauth2', urls });
  }
  if (schemes.length === 0) return undefined;
  for (const operation of operations) {
    for (const alternative of operation.security) for (const { scheme, scopes: required } of alternative) if (isOAuth(scheme)) for (const scope of required) scopes.add(scope);
  }
  if (openId) {
    for (const grant of Object.values(FLOW_GRANTS).flat()) grants.add(grant);
    for (const scope of OPENID_SCOPES) scopes.add(scope);
  }
  const { paths: documentPaths, warnings } = documentOAuthPaths(api, operations, served);
  return { schemes, grants, scopes, openId, documentPaths, warnings };
}

function isOAuth(scheme: SecuritySchemeObject | undefined): scheme is Extract<SecuritySchemeObject, { type: 'oauth2' | 'openIdConnect' }> {
  return Boolean(scheme) && typeof scheme === 'object' && (scheme.type === 'oauth2' || scheme.type === 'openIdConnect');
}
