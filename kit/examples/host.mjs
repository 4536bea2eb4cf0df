//! An example listing site's backend for the React and Vue examples: it serves each example's page with the
//! agent's first widget token (signed with widget-token.mjs), a new one at `POST /token`, and the bundles esbuild
//! made. Run: `node kit/examples/host.mjs` with
//!   VSTAGE_URL             where `vstage serve` is (http://127.0.0.1:8080), started with
//!                          `--access token --allow-origin http://127.0.0.1:3000`
//!   VSTAGE_WIDGET_SECRET   the secret that server has
//!   PORT                   this host's port (3000)
//!   HOST_BUNDLES           the folder of react.js and vue.js (kit/examples/dist)
//!   HOST_ORIGIN            optional: the address agents open this host at (http://127.0.0.1:PORT); tokens
//!                          are for pages of this origin only
//!   PHOTO_URL              optional: the listing's photo the studio starts with
//!   FIRST_TOKEN_TTL_S      optional: the first token's life (3600); a negative one shows the renewal at once
// @ts-check

import { readFile } from "node:fs/promises";
import { createServer } from "node:http";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { widgetTokenFor } from "../widget-token.mjs";

const vstage = (process.env.VSTAGE_URL ?? "http://127.0.0.1:8080").replace(/\/$/, "");
const secret = process.env.VSTAGE_WIDGET_SECRET ?? "";
const port = Number(process.env.PORT ?? 3000);
const bundles = process.env.HOST_BUNDLES ?? fileURLToPath(new URL("./dist/", import.meta.url));
const origin = process.env.HOST_ORIGIN ?? `http://127.0.0.1:${port}`;
const photoUrl = process.env.PHOTO_URL ?? "";
const firstTokenTtl = Number(process.env.FIRST_TOKEN_TTL_S ?? 3600);
/** The agent signed in to this listing site; a real site takes it from its own session. */
const agent = "agent-demo";
const examples = ["react", "vue"];

if (secret.length < 32) {
  console.error("Set VSTAGE_WIDGET_SECRET to the secret `vstage serve` has (32 characters or more).");
  process.exit(2);
}

/** @param {string} text */
const escaped = (text) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c);

/**
 * The page of `example`, with the agent's first token.
 * @param {string} example
 */
function page(example) {
  const token = widgetTokenFor({ secret, sub: agent, origin, ttlSeconds: firstTokenTtl });
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>14 Alder Lane (${example})</title>
<script type="module" src="${escaped(vstage)}/embed.js"></script>
<script type="module" src="/${example}.js"></script></head>
<body><div id="app" data-token="${escaped(token)}" data-listing="14 Alder Lane" data-photo-url="${escaped(photoUrl)}"></div>
</body></html>`;
}

const index = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Example hosts</title></head><body>
<h1>vstage in a listing site</h1><ul>${examples.map((e) => `<li><a href="/${e}">${e}</a></li>`).join("")}</ul>
</body></html>`;

/**
 * @param {import("node:http").ServerResponse} response
 * @param {number} status
 * @param {string} type
 * @param {string | Buffer} body
 */
function answer(response, status, type, body) {
  response.writeHead(status, { "content-type": type, "cache-control": "no-store" });
  response.end(body);
}

const server = createServer(async (request, response) => {
  const path = new URL(request.url ?? "/", origin).pathname;
  const example = examples.find((e) => path === `/${e}`);
  const bundle = examples.find((e) => path === `/${e}.js`);
  if (path === "/") return answer(response, 200, "text/html; charset=utf-8", index);
  if (example) return answer(response, 200, "text/html; charset=utf-8", page(example));
  if (path === "/token" && request.method === "POST") {
    // A real site checks here that its agent is still signed in.
    const token = widgetTokenFor({ secret, sub: agent, origin });
    return answer(response, 200, "application/json", JSON.stringify({ token }));
  }
  if (bundle) {
    try {
      return answer(response, 200, "text/javascript", await readFile(join(bundles, `${bundle}.js`)));
    } catch {
      const build = "build the examples first: docs/embedding.md, \"React and Vue\"";
      return answer(response, 404, "text/plain", `${bundle}.js is not in ${bundles}: ${build}`);
    }
  }
  return answer(response, 404, "text/plain", "not found");
});

server.listen(port, "127.0.0.1", () => console.log(`example host on ${origin}/`));
