/** Types of saml-idp.mjs, for the TypeScript tests (Playwright) that start it; the documentation is there. */
export type SAMLUser = { username: string; password: string; email: string; attributes?: Record<string, string[]> };
export type SAMLIdPOptions = {
  port?: number;
  spEntityId?: string;
  spAcsUrl?: string | string[];
  spMetadataXml?: string;
  otherSps?: { entityId: string; acsUrl: string | string[] }[];
  users: SAMLUser[];
  nameIdFormat?: "emailAddress" | "transient";
  signAssertion?: boolean;
  signResponse?: boolean;
  assertionLifetime?: number;
  entityId?: string;
  keyPem?: string;
  certPem?: string;
};
export type SAMLIdP = {
  url: string;
  entityId: string;
  metadataUrl: string;
  ssoUrl: string;
  certPem: string;
  keyPem: string;
  dir: string;
  log(): string;
  close(): Promise<void>;
};
export function startSAMLIdP(options: SAMLIdPOptions): Promise<SAMLIdP>;
export function samlLogin(options: { url: string; username: string; password: string }): Promise<{
  samlResponse: string;
  relayState: string | undefined;
  acsUrl: string;
  xml: string;
}>;
export function buildAuthnRequestURL(options: {
  ssoUrl: string;
  spEntityId: string;
  acsUrl: string;
  relayState?: string;
  id?: string;
  nameIdFormat?: string;
}): string;
export function parseAuthnRequestURL(url: string): {
  id: string | undefined;
  issuer: string | undefined;
  acsUrl: string | undefined;
  relayState: string | undefined;
  xml: string;
};
export function decodeSAMLResponse(samlResponse: string): string;
