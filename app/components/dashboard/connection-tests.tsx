import { CheckCircle2, ChevronDown, Loader2, PlayCircle, XCircle } from "lucide-react";
import { useState } from "react";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { CONNECTION_CHECKS, type ConnectionCheck, type ConnectionCheckResult } from "~/lib/connection-checks";


type Status = "loading" | "success" | "error";
interface Item {
  name: string;
  status: Status;
  message: string;
  details: unknown;
}

async function runCheck(name: ConnectionCheck): Promise<Omit<Item, "name">> {
  try {
    if (name === "Internal API Health") {
      const res = await fetch("/api/health", { headers: { Accept: "application/json" } });
      const body = await res.json().catch(() => ({}));
      return { status: res.ok ? "success" : "error", message: res.ok ? `API healthy (HTTP ${res.status})` : (body.error ?? "Request failed"), details: body };
    }
    const res = await fetch("/dashboard/connection-test", { method: "POST", body: new URLSearchParams({ check: name }) });
    const body: Partial<ConnectionCheckResult> = await res.json().catch(() => ({ ok: false }));
    return { status: res.ok && body.ok ? "success" : "error", message: body.message ?? "Request failed", details: body.details ?? {} };
  } catch (error) {
    return { status: "error", message: "Network error occurred", details: { error: String(error) } };
  }
}

function StatusIcon({ status }: { status: Status }) {
  if (status === "loading") return <Loader2 className="size-4 animate-spin text-muted-foreground" aria-label="Running" />;
  if (status === "success") return <CheckCircle2 className="size-4 text-emerald-500" aria-label="Passed" />;
  return <XCircle className="size-4 text-destructive" aria-label="Failed" />;
}

export function ConnectionTests() {
  const [items, setItems] = useState<Item[]>([]);
  const [running, setRunning] = useState(false);

  const run = async () => {
    setRunning(true);
    setItems([]);
    for (const name of CONNECTION_CHECKS) {
      setItems((prev) => [...prev, { name, status: "loading", message: "Running...", details: null }]);
      const result = await runCheck(name);
      setItems((prev) => prev.map((item) => (item.name === name ? { name, ...result } : item)));
    }
    setRunning(false);
  };

  return (
    <Card>
      <CardHeader className="flex flex-col gap-3 space-y-0 sm:flex-row sm:items-center sm:justify-between">
        <div className="space-y-1.5">
          <CardTitle>Connection Test</CardTitle>
          <CardDescription>Checks your session, the database, the API, your plan and API key creation.</CardDescription>
        </div>
        <Button onClick={run} disabled={running}>
          {running ? <Loader2 className="animate-spin" aria-hidden /> : <PlayCircle aria-hidden />} Run Connection Tests
        </Button>
      </CardHeader>
      {items.length ? (
        <CardContent>
          <ul className="divide-y rounded-md border" aria-live="polite" aria-label="Connection test results">
            {items.map((item) => (
              <li key={item.name} className="px-3 py-2" data-testid="connection-check" data-status={item.status}>
                <details className="group">
                  <summary className="flex cursor-pointer list-none items-center gap-3 rounded-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring">
                    <StatusIcon status={item.status} />
                    <span className="font-medium">{item.name}</span>
                    <span className="min-w-0 flex-1 truncate text-right text-sm text-muted-foreground">{item.message}</span>
                    <ChevronDown className="size-4 shrink-0 transition-transform group-open:rotate-180" aria-hidden />
                  </summary>
                  <pre
                    tabIndex={0}
                    role="region"
                    aria-label={`${item.name} details`}
                    className="mt-2 max-h-60 overflow-auto rounded bg-muted p-2 text-xs focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
                  >{JSON.stringify(item.details, null, 2)}</pre>
                </details>
              </li>
            ))}
          </ul>
        </CardContent>
      ) : null}
    </Card>
  );
}
