/** Types of oidc-provider.mjs, for the TypeScript tests (Playwright) that start it; the documentation is there. */
export type OIDCClient = { client_id: string; client_secret: string; redirect_uris: string[]; [metadata: string]: unknown };
export type OIDCUser = { sub: string; email: string; email_verified: boolean; name?: string; password?: string };
export type OIDCProvider = {
  issuer: string;
  url: string;
  jwksUrl: string;
  publicJwk: JsonWebKey & { kid: string };
  privateJwk: JsonWebKey & { kid: string };
  signIdToken(claims: Record<string, unknown>, options?: { header?: Record<string, unknown> }): string;
  provider: unknown;
  close(): Promise<void>;
};
export function startOIDCProvider(options: { port?: number; clients: OIDCClient[]; users: OIDCUser[] }): Promise<OIDCProvider>;
export function oidcLogin(options: { authorizeUrl: string; login: string; password?: string }): Promise<{ callbackUrl: string }>;
export function exchangeCode(options: {
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  code: string;
  redirectUri: string;
  codeVerifier?: string;
}): Promise<{ id_token: string; access_token: string; [field: string]: unknown }>;
