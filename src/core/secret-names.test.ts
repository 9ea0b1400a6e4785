import { describe, expect, it } from 'vitest';
import { isSecretName, isSecretParameterName } from './secret-names.js';

describe('names like a secret\'s', () => {
  it.each([
    ['password', true], ['Password', true], ['user_password', true], ['passwd', true], ['client_secret', true], ['clientSecret', true], ['X-Api-Key', true], ['api key', true], ['APIKey', true],
    ['accessToken', true], ['accessTokens', true], ['refresh_token', true], ['auth_token', true], ['token', true], ['tokens', true], ['private_key', true], ['Set-Cookie', true], ['authorization', true],
    ['credentials', true], ['userCredential', true], ['sessionId', true], ['sessionid', true], ['X-Session-Id', true], ['session', true], ['user_sessions', true], ['auth', true], ['X-Auth', true], ['basicAuth', true], ['jwt', true],
    ['next_page_token', false], ['pageToken', false], ['nextPageTokens', false], ['token_type', false], ['tokens_used', false], ['name', false], ['author', false], ['authority', false], ['possession', false], ['key', false], ['monkey', false], ['id', false],
  ] as const)('%s is a property or header named like a secret: %s', (name, secret) => {
    expect(isSecretName(name)).toBe(secret);
  });

  it.each([
    ['key', true], ['api_key', true], ['access_token', true], ['token', true], ['Ocp-Apim-Subscription-Key', true], ['X-Amz-Signature', true], ['sig', true], ['session', true],
    ['limit', false], ['cursor', false], ['page_token', false], ['monkey', false], ['keyword', false],
  ] as const)('%s is a query parameter or header named like a secret: %s', (name, secret) => {
    expect(isSecretParameterName(name)).toBe(secret);
  });
});
