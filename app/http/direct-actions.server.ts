import type { IncomingMessage, ServerResponse } from "node:http";
import type { TLSSocket } from "node:tls";
import type { AppLoadContext } from "react-router";
import { apiError } from "~/http/api-response.server";

/** The part of React Router's action arguments the script API's upload actions read. */
export interface DirectActionArgs {
  request: Request;
  params: Record<string, string>;
  context: AppLoadContext;
}

/**
 * A route module's action answered straight from the Node request, without Express or React
 * Router: the script API's upload routes are the game workload, and the router, its page
 * middleware and its per-request setup cost more there than the work the answer needs
 * (decision record 077). The same module runs when React Router dispatches it.
 */
export interface DirectRoute {
  methods: readonly string[];
  /** Matches the path only; named groups become the action's params. */
  path: RegExp;
  action(args: DirectActionArgs): Promise<Response>;
}

export interface DirectMatch {
  route: DirectRoute;
  params: Record<string, string>;
}

export function matchDirectRoute(routes: readonly DirectRoute[], method: string | undefined, url: string | undefined): DirectMatch | null {
  if (!method || !url) return null;
  const mark = url.indexOf("?");
  const pathname = mark === -1 ? url : url.slice(0, mark);
  for (const route of routes) {
    if (!route.methods.includes(method)) continue;
    const found = route.path.exec(pathname);
    if (!found) continue;
    const params: Record<string, string> = {};
    try {
      for (const [name, value] of Object.entries(found.groups ?? {})) params[name] = decodeURIComponent(value);
    } catch {
      // A malformed escape: React Router answers it (404) the way it answers any unknown path.
      return null;
    }
    return { route, params };
  }
  return null;
}

/** Requests made here, with the Node stream their body can still be read from directly. */
const nodeBodies = new WeakMap<Request, { req: IncomingMessage; pulled: boolean }>();

/**
 * A body that reads nothing until it is read: the multipart path may then take the Node stream itself
 * (`takeNodeBody`) instead of converting every chunk to a web stream and back for busboy.
 */
function lazyBody(req: IncomingMessage, state: { pulled: boolean }): ReadableStream<Uint8Array> {
  let chunks: AsyncIterator<Buffer> | undefined;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        state.pulled = true;
        // Not destroyed when the reader stops early: the host discards what is left after the answer.
        chunks ??= req.iterator({ destroyOnReturn: false })[Symbol.asyncIterator]();
        const next = await chunks.next();
        if (next.done) controller.close();
        else controller.enqueue(new Uint8Array(next.value.buffer, next.value.byteOffset, next.value.length));
      },
      async cancel() {
        await chunks?.return?.();
      },
    },
    { highWaterMark: 0 },
  );
}

/** The Node stream of a request made here whose body nobody has read yet; null otherwise. */
export function takeNodeBody(request: Request): IncomingMessage | null {
  const state = nodeBodies.get(request);
  if (!state || state.pulled || request.bodyUsed) return null;
  state.pulled = true;
  return state.req;
}

function requestOf(req: IncomingMessage): Request {
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
  const scheme = (req.socket as TLSSocket).encrypted ? "https" : "http";
  let url: URL;
  try {
    url = new URL(req.url!, `${scheme}://${req.headers.host ?? "localhost"}`);
  } catch {
    url = new URL(req.url!, `${scheme}://localhost`);
  }
  // No abort signal: these actions learn of a client that went away from their body stream, and a
  // signal's listener bookkeeping was a third of what building the Request cost per upload.
  const state = { req, pulled: false };
  const request = new Request(url, { method: req.method, headers, body: lazyBody(req, state), duplex: "half" } as RequestInit);
  nodeBodies.set(request, state);
  return request;
}

async function send(res: ServerResponse, response: Response): Promise<void> {
  if (res.destroyed || res.writableEnded) {
    await response.body?.cancel();
    return;
  }
  // Script API answers are small JSON documents: read whole, sent with their length in one write.
  const body = response.body ? Buffer.from(await response.arrayBuffer()) : undefined;
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of response.headers) headers[name] = value;
  const cookies = response.headers.getSetCookie();
  if (cookies.length) headers["set-cookie"] = cookies;
  if (body) headers["content-length"] = String(body.length);
  res.writeHead(response.status, headers);
  res.end(body);
}

/** Runs a matched action and writes its answer; a throw the action did not turn into an answer is a logged 500. */
export async function runDirectAction(match: DirectMatch, req: IncomingMessage, res: ServerResponse, context: AppLoadContext): Promise<void> {
  let response: Response;
  try {
    response = await match.route.action({ request: requestOf(req), params: match.params, context });
  } catch (error) {
    context.logger.error({ err: error, requestId: context.requestId }, "script API request failed");
    response = apiError("internal_error", "Internal server error", { request_id: context.requestId });
  }
  await send(res, response);
}
