import { pageTitle } from "~/lib/site";
import type { Route } from "./+types/dashboard";

export function meta() {
  return [{ title: pageTitle("Dashboard") }];
}

export default function Dashboard(_: Route.ComponentProps) {
  return (
    <section className="space-y-2">
      <h1 className="text-2xl font-bold tracking-tight">Dashboard</h1>
      <p className="text-muted-foreground">Your servers, media and usage at a glance.</p>
    </section>
  );
}
