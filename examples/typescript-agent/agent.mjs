// A τ-Rec agent as a plain Node.js HTTP service: no framework, no build step, no dependencies.
// It speaks the HTTP agent protocol (one POST per agent step) and plays whichever domain the tools
// offered name: a movie recommender (movies.mjs) or, when `search_products` and `place_order` are
// offered, a grocery shopping assistant (grocery.mjs, reading the shopper with hear.mjs). Both
// follow their written policy.
//
// Run:   node agent.mjs [--port 0] [--host 127.0.0.1]   (port 0, the default: any free port)
// Types are JSDoc annotations (editors and TypeScript tooling read them); Node runs the file as-is.

import http from "node:http";
import { pathToFileURL } from "node:url";

import { groceryStep, isGrocery } from "./grocery.mjs";
import { moviesStep } from "./movies.mjs";

/**
 * @typedef {{id: string, type?: string, function: {name: string, arguments: string}}} WireToolCall
 * @typedef {{role: string, content?: string | null, tool_calls?: WireToolCall[], tool_call_id?: string}} ChatMessage
 * @typedef {{tool_call_id: string, name: string, content: string}} StepToolResult
 * @typedef {{protocol_version: 1, user_id: string, policy: string, messages: ChatMessage[],
 *            tools: object[], last_tool_results: StepToolResult[]}} AgentStepRequest
 * @typedef {{id: string, name: string, arguments: Record<string, unknown>}} StepToolCall
 * @typedef {{message?: string, tool_calls?: StepToolCall[]}} AgentStepResponse
 * @typedef {{name: string, args: Record<string, any>, result: any}} ToolUse
 */

/**
 * One agent step: the protocol request in, the protocol response out. Pure apart from call ids.
 * The domain is the one the tools offered name (no protocol field needed).
 * @param {AgentStepRequest} request
 * @returns {AgentStepResponse}
 */
export function step(request) {
  return isGrocery(request.tools ?? []) ? groceryStep(request) : moviesStep(request);
}

/** Serve `step` on POST; answer 400 with a reason on a body that is not a protocol request. */
export function createServer() {
  return http.createServer((req, res) => {
    if (req.method !== "POST") {
      res.writeHead(405, { Allow: "POST" }).end();
      return;
    }
    /** @type {Buffer[]} */
    const chunks = [];
    req.on("data", (chunk) => chunks.push(chunk));
    req.on("end", () => {
      let body;
      try {
        const request = JSON.parse(Buffer.concat(chunks).toString("utf8"));
        if (request.protocol_version !== 1 || !Array.isArray(request.messages)) {
          throw new Error("expected a protocol_version 1 request with messages");
        }
        body = JSON.stringify(step(request));
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        res.writeHead(400, { "Content-Type": "application/json" }).end(JSON.stringify({ error: message }));
        return;
      }
      res.writeHead(200, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) });
      res.end(body);
    });
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const args = process.argv.slice(2);
  const option = (/** @type {string} */ name, /** @type {string} */ fallback) => {
    const i = args.indexOf(name);
    return i >= 0 && args[i + 1] ? args[i + 1] : fallback;
  };
  const host = option("--host", "127.0.0.1");
  const server = createServer();
  server.listen(Number(option("--port", "0")), host, () => {
    const address = server.address();
    const port = typeof address === "object" && address ? address.port : option("--port", "0");
    // The first line of output names the address, so a test (or a script) can use port 0.
    console.log(`listening on http://${host}:${port}/`);
  });
  process.on("SIGTERM", () => server.close(() => process.exit(0)));
}
