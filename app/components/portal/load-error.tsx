import { useEffect } from "react";
import { isRouteErrorResponse, Link, useRouteError } from "react-router";
import { showToast } from "~/lib/toast";
import { Button } from "~/components/ui/button";

/**
 * A page whose data could not be loaded: the spec's toast ("Error loading servers" …) and the same
 * words in the page, with a retry. Redirects (sign-in, admin checks) never reach here.
 */
export function LoadError({ title, fallback }: { title: string; fallback: string }) {
  const error = useRouteError();
  const message = isRouteErrorResponse(error) && typeof error.data === "string" && error.data ? error.data : fallback;
  useEffect(() => {
    showToast({ type: "error", title, description: message });
  }, [title, message]);
  return (
    <div role="alert" className="mx-auto flex max-w-md flex-col items-center gap-3 py-16 text-center">
      <h1 className="text-2xl font-bold">{title}</h1>
      <p className="text-muted-foreground">{message}</p>
      <div className="flex gap-2">
        <Button onClick={() => window.location.reload()}>Try again</Button>
        <Button asChild variant="outline">
          <Link to="/dashboard">Dashboard</Link>
        </Button>
      </div>
    </div>
  );
}
