/**
 * Integration tests without a build: one Vite server in vitest's main process transforms the app's
 * server side (server/app.ts and every route) once per run, and each test worker evaluates it
 * through a Vite ModuleRunner that asks that server for modules over HTTP (docs/testing.md).
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { ESModulesEvaluator, ModuleRunner } from "vite/module-runner";
import type * as AppEntryModule from "../../server/app.ts";

export interface AppSourceServer {
  url: string;
  close(): Promise<void>;
}

/** Main process: a Vite dev server (no HMR, no file watching) behind a one-route RPC endpoint. */
export async function startAppSourceServer(): Promise<AppSourceServer> {
  const { createServer } = await import("vite");
  const vite = await createServer({
    // Warm-up transforms the entry and every route while the first worker is still starting, so its
    // module-by-module requests find them done instead of waiting on each transform in turn.
    server: { middlewareMode: true, hmr: false, ws: false, watch: null, warmup: { ssrFiles: ["./server/app.ts", "./app/root.tsx", "./app/routes/**/!(*.test).{ts,tsx}"] } },
    appType: "custom",
    logLevel: "warn",
  });
  const rpc = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    let answer: unknown;
    try {
      answer = await vite.environments.ssr.hot.handleInvoke(JSON.parse(Buffer.concat(chunks).toString("utf8")));
    } catch (error) {
      answer = { error: { name: "AppSourceError", message: error instanceof Error ? error.message : String(error) } };
    }
    res.setHeader("Content-Type", "application/json");
    res.end(JSON.stringify(answer));
  });
  // The workers' keep-alive connections are closed by the workers (undici), never under a request
  // they are about to send: a server-side idle close during a long transform showed up as ECONNRESET.
  rpc.keepAliveTimeout = 0;
  await new Promise<void>((resolve) => rpc.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(rpc.address() as AddressInfo).port}`,
    async close() {
      await new Promise<void>((resolve) => rpc.close(() => resolve()));
      await vite.close();
    },
  };
}

interface InvokePayload {
  data: { name: string; data: [string, string?, { cached?: boolean }?] };
}

let runner: ModuleRunner | undefined;

/** Test worker: the app's server entry, evaluated from source once per worker. */
export function loadAppFromSource(url: string): Promise<typeof AppEntryModule> {
  runner ??= new ModuleRunner(
    {
      transport: {
        async invoke(payload) {
          const { name, data } = (payload as unknown as InvokePayload).data;
          // Nothing changes the sources during a run, so a module this worker holds is current: answering
          // that here instead of asking the server saves a round trip per import statement (~1,500).
          if (name === "fetchModule" && data[2]?.cached) return { result: { cache: true } };
          const body = JSON.stringify(payload);
          // Asking for a module changes nothing, so a request cut with its connection is asked again once.
          const res = await fetch(url, { method: "POST", body }).catch(() => fetch(url, { method: "POST", body }));
          return (await res.json()) as { result: unknown } | { error: unknown };
        },
      },
      hmr: false,
      sourcemapInterceptor: "node",
    },
    new ESModulesEvaluator(),
  );
  return runner.import("/server/app.ts");
}
