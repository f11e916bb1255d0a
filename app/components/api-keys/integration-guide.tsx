import { Download } from "lucide-react";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Label } from "~/components/ui/label";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "~/components/ui/tabs";
import {
  KEY_PLACEHOLDER,
  presignSnippets,
  resourceConfigs,
  RESPONSE_CODES,
  searchDownloadSnippets,
  TROUBLESHOOTING,
  uploadSnippets,
  type Snippet,
} from "~/lib/integration-snippets";
import { CodeBlock } from "~/components/api-keys/code-block";
import { NativeSelect } from "~/components/api-keys/native-select";

function Snippets({ items }: { items: Snippet[] }) {
  return (
    <div className="space-y-6">
      {items.map((s) => (
        <CodeBlock key={s.id} snippet={s} />
      ))}
    </div>
  );
}

export function IntegrationGuide({
  baseUrl,
  appName,
  servers,
  serverId,
  onServerChange,
  apiKey,
}: {
  baseUrl: string;
  appName: string;
  servers: { id: string; name: string }[];
  serverId: string | null;
  onServerChange: (id: string) => void;
  apiKey: string | null;
}) {
  const ctx = { baseUrl, serverId: serverId ?? "SERVER_ID", apiKey: apiKey ?? KEY_PLACEHOLDER };
  const server = servers.find((s) => s.id === serverId);
  const webhookHint = server
    ? `Use the webhook URL shown on the "${server.name}" server page in place of the Discord webhook URL.`
    : "Use the webhook URL shown on your server's page in place of the Discord webhook URL.";
  return (
    <Card>
      <CardHeader className="gap-3">
        <div className="space-y-1.5">
          <CardTitle>Integration Guide</CardTitle>
          <CardDescription>
            Base URL <code className="rounded bg-muted px-1 font-mono">{baseUrl}</code>. Examples use{" "}
            {apiKey ? "your new key" : <code className="font-mono">{KEY_PLACEHOLDER}</code>}: paste your key there.
          </CardDescription>
        </div>
        {servers.length ? (
          <div className="grid max-w-sm gap-2">
            <Label htmlFor="guide-server">Server</Label>
            <NativeSelect id="guide-server" value={serverId ?? ""} onChange={(e) => onServerChange(e.target.value)}>
              {servers.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.name}
                </option>
              ))}
            </NativeSelect>
          </div>
        ) : null}
      </CardHeader>
      <CardContent>
        <Tabs defaultValue="upload">
          <div className="-mx-1 overflow-x-auto px-1 pb-1">
            <TabsList className="w-max">
              <TabsTrigger value="upload">Upload</TabsTrigger>
              <TabsTrigger value="search">Search &amp; download</TabsTrigger>
              <TabsTrigger value="presign">Presigned uploads</TabsTrigger>
              <TabsTrigger value="configs">Resource configs</TabsTrigger>
              <TabsTrigger value="help">Troubleshooting</TabsTrigger>
            </TabsList>
          </div>
          <TabsContent value="upload" className="pt-4">
            <p className="mb-4 text-sm text-muted-foreground">
              <code className="font-mono">POST {baseUrl}/api/upload</code>: fields file, category, player_name, player_identifier, is_public
              (&quot;true&quot;/&quot;false&quot;, the server&apos;s default when absent), metadata (JSON string). Answers 201 with success, url and data
              (id, filename, public_url).
            </p>
            <Snippets items={uploadSnippets(ctx)} />
          </TabsContent>
          <TabsContent value="search" className="pt-4">
            <Snippets items={searchDownloadSnippets(ctx)} />
          </TabsContent>
          <TabsContent value="presign" className="pt-4">
            <ol className="mb-4 list-decimal space-y-1 pl-5 text-sm text-muted-foreground">
              <li>Your server script asks for a one-time URL with its key.</li>
              <li>It hands the URL to the player&apos;s client or NUI page.</li>
              <li>The client uploads to it with no key; the URL then stops working.</li>
            </ol>
            <Snippets items={presignSnippets(ctx)} />
          </TabsContent>
          <TabsContent value="configs" className="pt-4">
            <div className="mb-6 flex flex-col gap-3 rounded-md border p-3 sm:flex-row sm:items-center sm:justify-between">
              <div>
                <p className="font-medium">ShareX</p>
                <p className="text-sm text-muted-foreground">A custom uploader for {appName}: double-click the file to import it into ShareX.</p>
              </div>
              <Button asChild variant="outline" size="sm">
                <a href="/api-keys/sharex.sxcu" download>
                  <Download aria-hidden /> Download .sxcu
                </a>
              </Button>
            </div>
            <Snippets items={resourceConfigs(ctx, webhookHint)} />
          </TabsContent>
          <TabsContent value="help" className="grid gap-6 pt-4 lg:grid-cols-2">
            <section>
              <h3 className="mb-2 font-semibold">Troubleshooting</h3>
              <dl className="space-y-3 text-sm">
                {TROUBLESHOOTING.map(([problem, fix]) => (
                  <div key={problem}>
                    <dt className="font-medium">{problem}</dt>
                    <dd className="text-muted-foreground">{fix}</dd>
                  </div>
                ))}
              </dl>
            </section>
            <section>
              <h3 className="mb-2 font-semibold">Response codes</h3>
              <table className="w-full text-sm">
                <tbody className="divide-y">
                  {RESPONSE_CODES.map(([code, meaning]) => (
                    <tr key={code}>
                      <th scope="row" className="py-1.5 pr-4 text-left font-mono font-medium">
                        {code}
                      </th>
                      <td className="py-1.5 text-muted-foreground">{meaning}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </section>
          </TabsContent>
        </Tabs>
      </CardContent>
    </Card>
  );
}
