import { CheckCircle2, Circle, Copy } from "lucide-react";
import { Link } from "react-router";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "~/components/ui/tabs";
import { copyText } from "~/lib/file-actions";
import type { Bases } from "~/lib/content/api-examples";
import { lbPhoneUpload, npwdConfig, qbPhoneWebhook, screenshotBasicServer, sharexUploader, type Snippet } from "~/lib/content/script-snippets";

export interface OnboardingProgress {
  server: boolean;
  key: boolean;
  upload: boolean;
}

/** The scripts owners arrive with, each with the config or Lua that points it at this instance. */
function scripts(bases: Bases, appName: string, serverId: string | null): { id: string; label: string; snippet: Snippet; note: string }[] {
  const qb = qbPhoneWebhook(bases);
  return [
    { id: "screenshot-basic", label: "screenshot-basic", snippet: screenshotBasicServer(bases), note: "Server-side: take a player's screenshot and store it. Put your key in server.cfg as stash_api_key." },
    { id: "lb-phone", label: "LB Phone", snippet: lbPhoneUpload(bases), note: "Replace API_KEY with your key; photos, videos and voice notes all upload here." },
    { id: "npwd", label: "NPWD", snippet: npwdConfig(bases), note: "NPWD sends the key as a Bearer token: set it where your NPWD version reads it." },
    {
      id: "qb-phone",
      label: "qb-phone",
      snippet: serverId ? { ...qb, code: qb.code.replace("YOUR_SERVER_ID", serverId) } : qb,
      note: "The webhook secret is on your server's page under Discord-compatible webhook.",
    },
    { id: "sharex", label: "ShareX", snippet: sharexUploader(bases, appName), note: "Or download the ready-made .sxcu file from API Keys." },
  ];
}

const STEPS = [
  { key: "server", title: "Create a server", done: "Server created", to: "/servers?new=1", action: "Add Server" },
  { key: "key", title: "Create an API key", done: "API key created", to: "/api-keys", action: "Create key" },
  { key: "upload", title: "Make a first upload", done: "First file uploaded", to: "/upload", action: "Upload a file" },
] as const;

/** Shown until the account has a server, a key and a file: each step ticks from real data. */
export function GettingStarted({ progress, bases, appName, serverId }: { progress: OnboardingProgress; bases: Bases; appName: string; serverId: string | null }) {
  const doneCount = STEPS.filter((s) => progress[s.key]).length;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Get started</CardTitle>
        <CardDescription>{`${doneCount} of ${STEPS.length} done. Three steps and your scripts upload here instead of Discord.`}</CardDescription>
      </CardHeader>
      <CardContent className="space-y-6">
        <ol className="grid gap-3 md:grid-cols-3" aria-label="Getting started checklist">
          {STEPS.map((step, i) => {
            const done = progress[step.key];
            return (
              <li key={step.key} className="flex items-start gap-3 rounded-lg border p-4" data-testid="onboarding-step" data-done={done}>
                {done ? <CheckCircle2 className="mt-0.5 size-5 shrink-0 text-emerald-500" aria-hidden /> : <Circle className="mt-0.5 size-5 shrink-0 text-muted-foreground" aria-hidden />}
                <div className="min-w-0 space-y-2">
                  <p className="font-medium">
                    <span className="sr-only">{done ? "Done: " : "To do: "}</span>
                    {`${i + 1}. ${done ? step.done : step.title}`}
                  </p>
                  {done ? null : (
                    <Button asChild size="sm" variant="outline">
                      <Link to={step.to}>{step.action}</Link>
                    </Button>
                  )}
                </div>
              </li>
            );
          })}
        </ol>
        <div className="space-y-3">
          <h3 className="text-sm font-semibold">Connect your script</h3>
          <Tabs defaultValue="screenshot-basic">
            <TabsList className="h-auto flex-wrap justify-start">
              {scripts(bases, appName, serverId).map((s) => (
                <TabsTrigger key={s.id} value={s.id}>
                  {s.label}
                </TabsTrigger>
              ))}
            </TabsList>
            {scripts(bases, appName, serverId).map((s) => (
              <TabsContent key={s.id} value={s.id} className="space-y-2">
                <p className="text-sm text-muted-foreground">{s.note}</p>
                <figure className="overflow-hidden rounded-lg border bg-[#0f1014] text-zinc-100">
                  <figcaption className="flex items-center justify-between gap-2 border-b border-white/10 py-1.5 pl-4 pr-1.5">
                    <span className="truncate font-mono text-xs text-zinc-400">{s.snippet.filename ?? s.snippet.language}</span>
                    <Button size="sm" variant="ghost" className="text-zinc-300 hover:bg-white/10 hover:text-white" onClick={() => copyText(s.snippet.code)} aria-label={`Copy the ${s.label} snippet`}>
                      <Copy aria-hidden />
                      Copy
                    </Button>
                  </figcaption>
                  <pre className="max-h-80 overflow-auto p-4 text-xs leading-relaxed">
                    <code>{s.snippet.code}</code>
                  </pre>
                </figure>
                <p className="text-xs text-muted-foreground">
                  More in the{" "}
                  <Link to={`/docs#guide-${s.id}`} className="underline underline-offset-4">
                    documentation
                  </Link>
                  .
                </p>
              </TabsContent>
            ))}
          </Tabs>
        </div>
      </CardContent>
    </Card>
  );
}
