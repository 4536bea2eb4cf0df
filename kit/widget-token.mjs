//! Mints a widget token in a host's Node backend (docs/embedding.md, "Tokens"): `v1.<payload>.<signature>`, the
//! payload base64url (no padding) of the JSON claims `{"sub","exp","origin"}` in that order, the signature
//! base64url (no padding) of HMAC-SHA256(secret, "v1." + payload). No dependencies beyond Node's own `crypto`.
// @ts-check

import { createHmac } from "node:crypto";

/**
 * A token for the agent `sub`, valid until `exp` (unix seconds), for pages of `origin` only when given.
 * @param {{ secret: string, sub: string, exp: number, origin?: string }} claims
 * @returns {string}
 */
export function widgetToken({ secret, sub, exp, origin }) {
  if (!secret) throw new Error("widgetToken needs the secret vstage serve has as VSTAGE_WIDGET_SECRET");
  if (!sub) throw new Error("widgetToken needs the signed-in agent's id as sub");
  if (!Number.isInteger(exp)) throw new Error("widgetToken needs exp in whole unix seconds");
  const claims = origin === undefined ? { sub, exp } : { sub, exp, origin };
  const payload = Buffer.from(JSON.stringify(claims)).toString("base64url");
  const signature = createHmac("sha256", secret).update(`v1.${payload}`).digest("base64url");
  return `v1.${payload}.${signature}`;
}

/**
 * A token for `sub` that lasts `ttlSeconds` (an hour by default) from now.
 * @param {{ secret: string, sub: string, origin?: string, ttlSeconds?: number }} options
 * @returns {string}
 */
export function widgetTokenFor({ secret, sub, origin, ttlSeconds = 3600 }) {
  return widgetToken({ secret, sub, origin, exp: Math.floor(Date.now() / 1000) + ttlSeconds });
}
