import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";

/**
 * A local HTTP server speaking the part of Stripe's REST API that Stash uses (customers,
 * Checkout sessions, Billing Portal sessions, subscriptions, prices by lookup key), so the real
 * `stripe` client runs unchanged against it (STRIPE_API_BASE).
 */

type Params = Record<string, unknown>;

export interface RecordedRequest {
  method: string;
  path: string;
  params: Params;
  idempotencyKey: string | null;
}

export interface FakeSubscription {
  id: string;
  customer: string;
  status: string;
  price: { id: string; lookup_key: string | null };
  currentPeriodEnd: number;
  metadata: Record<string, string>;
}

/** Parses Stripe's bracket form encoding (a[b][0][c]=v) into nested objects and arrays. */
function parseForm(pairs: URLSearchParams): Params {
  const root: Params = {};
  for (const [key, value] of pairs) {
    const parts = key.replace(/\]/g, "").split("[");
    let node: Record<string, unknown> = root;
    parts.forEach((part, i) => {
      if (i === parts.length - 1) {
        node[part] = value;
        return;
      }
      node[part] ??= /^\d+$/.test(parts[i + 1]!) ? [] : {};
      node = node[part] as Record<string, unknown>;
    });
  }
  return root;
}

const id = (prefix: string) => `${prefix}_${randomBytes(8).toString("hex")}`;

export class FakeStripe {
  readonly requests: RecordedRequest[] = [];
  readonly subscriptions = new Map<string, FakeSubscription>();
  readonly prices = new Map<string, { id: string; lookup_key: string | null }>();
  /** Makes the next Checkout session creation fail with this Stripe error message. */
  failNextCheckout: string | null = null;
  /** While true, cancelling a subscription fails as Stripe does when it is down (the client retries once). */
  failCancels = false;
  private server!: http.Server;
  url = "";

  async start(): Promise<this> {
    this.server = http.createServer((req, res) => {
      let body = "";
      req.on("data", (chunk) => (body += chunk));
      req.on("end", () => this.handle(req, body, res));
    });
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  addPrice(priceId: string, lookupKey: string | null = null) {
    this.prices.set(priceId, { id: priceId, lookup_key: lookupKey });
  }

  setSubscription(sub: Partial<FakeSubscription> & { customer: string; priceId: string; metadata?: Record<string, string> }): FakeSubscription {
    const existing = sub.id ? this.subscriptions.get(sub.id) : undefined;
    const value: FakeSubscription = {
      id: sub.id ?? id("sub"),
      customer: sub.customer,
      status: sub.status ?? "active",
      price: this.prices.get(sub.priceId) ?? { id: sub.priceId, lookup_key: null },
      currentPeriodEnd: sub.currentPeriodEnd ?? Math.floor(Date.now() / 1000) + 30 * 86400,
      metadata: sub.metadata ?? existing?.metadata ?? {},
    };
    this.subscriptions.set(value.id, value);
    return value;
  }

  subscriptionObject(sub: FakeSubscription) {
    return {
      id: sub.id,
      object: "subscription",
      customer: sub.customer,
      status: sub.status,
      metadata: sub.metadata,
      items: {
        object: "list",
        data: [{ id: `si_${sub.id}`, object: "subscription_item", current_period_end: sub.currentPeriodEnd, price: { object: "price", ...sub.price } }],
      },
    };
  }

  requestsTo(path: string): RecordedRequest[] {
    return this.requests.filter((r) => r.path === path);
  }

  private handle(req: http.IncomingMessage, body: string, res: http.ServerResponse) {
    const url = new URL(req.url ?? "/", "http://stripe.local");
    const params = parseForm(req.method === "GET" ? url.searchParams : new URLSearchParams(body));
    const idempotencyKey = (req.headers["idempotency-key"] as string | undefined) ?? null;
    if (!req.url?.startsWith("/checkout/") && !req.url?.startsWith("/portal/")) this.requests.push({ method: req.method ?? "GET", path: url.pathname, params, idempotencyKey });
    const send = (status: number, payload: unknown) => {
      res.writeHead(status, { "Content-Type": "application/json", "Request-Id": id("req") });
      res.end(JSON.stringify(payload));
    };
    const error = (status: number, message: string, code = "resource_missing") =>
      send(status, { error: { type: "invalid_request_error", code, message } });
    if (req.method === "GET" && /^\/(checkout|portal)\//.test(url.pathname)) {
      // The hosted pages a browser is sent to.
      res.writeHead(200, { "Content-Type": "text/html" });
      res.end(`<!doctype html><title>Fake Stripe</title><h1>Fake Stripe ${url.pathname.split("/")[1]}</h1>`);
      return;
    }
    if (!String(req.headers.authorization ?? "").startsWith("Bearer sk_")) return error(401, "Invalid API Key provided", "api_key_invalid");

    const route = `${req.method} ${url.pathname}`;
    if (route === "POST /v1/customers") {
      // Stripe answers a repeated idempotency key with the first result: the same customer.
      const customerId = idempotencyKey ? `cus_${Buffer.from(idempotencyKey).toString("hex").slice(-16)}` : id("cus");
      return send(200, { id: customerId, object: "customer", email: params.email ?? null, metadata: params.metadata ?? {} });
    }
    if (route === "POST /v1/checkout/sessions") {
      if (this.failNextCheckout) {
        const message = this.failNextCheckout;
        this.failNextCheckout = null;
        return error(400, message, "parameter_invalid");
      }
      const sessionId = id("cs_test");
      return send(200, {
        id: sessionId,
        object: "checkout.session",
        mode: params.mode,
        customer: params.customer,
        metadata: params.metadata ?? {},
        url: `${this.url}/checkout/${sessionId}`,
      });
    }
    if (route === "POST /v1/billing_portal/sessions") {
      return send(200, { id: id("bps"), object: "billing_portal.session", customer: params.customer, return_url: params.return_url, url: `${this.url}/portal/${id("bps")}` });
    }
    const sub = /^GET \/v1\/subscriptions\/([^/]+)$/.exec(route);
    if (sub) {
      const found = this.subscriptions.get(decodeURIComponent(sub[1]!));
      return found ? send(200, this.subscriptionObject(found)) : error(404, `No such subscription: '${sub[1]}'`);
    }
    const cancel = /^DELETE \/v1\/subscriptions\/([^/]+)$/.exec(route);
    if (cancel) {
      if (this.failCancels) return error(500, "An unknown error occurred", "api_error");
      const found = this.subscriptions.get(decodeURIComponent(cancel[1]!));
      if (!found) return error(404, `No such subscription: '${cancel[1]}'`, "resource_missing");
      found.status = "canceled";
      return send(200, this.subscriptionObject(found));
    }
    if (route === "GET /v1/prices") {
      const keys = (params.lookup_keys as string[] | undefined) ?? [];
      const data = [...this.prices.values()].filter((p) => p.lookup_key && keys.includes(p.lookup_key)).map((p) => ({ object: "price", active: true, ...p }));
      return send(200, { object: "list", data, has_more: false, url: "/v1/prices" });
    }
    return error(404, `Unrecognized request URL (${req.method}: ${url.pathname})`);
  }
}

export const WEBHOOK_SECRET = "whsec_test_secret";

/** A signed webhook delivery as Stripe sends it: the JSON body and its Stripe-Signature header. */
export function signedEvent(
  type: string,
  object: Record<string, unknown>,
  options: { id?: string; secret?: string; timestamp?: number } = {},
): { id: string; body: string; signature: string } {
  const eventId = options.id ?? id("evt");
  const body = JSON.stringify({
    id: eventId,
    object: "event",
    api_version: "2026-10-28.endive",
    created: Math.floor(Date.now() / 1000),
    type,
    livemode: false,
    pending_webhooks: 1,
    data: { object },
  });
  const signature = Stripe.webhooks.generateTestHeaderString({
    payload: body,
    secret: options.secret ?? WEBHOOK_SECRET,
    timestamp: options.timestamp,
  });
  return { id: eventId, body, signature };
}
