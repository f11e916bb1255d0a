import {
  data,
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLoaderData,
  useRouteLoaderData,
  type ShouldRevalidateFunctionArgs,
} from "react-router";
import type { Route } from "./+types/root";
import { ThemeProvider } from "~/components/theme/theme-provider";
import { Toaster } from "~/components/toaster";
import { TooltipProvider } from "~/components/ui/tooltip";
import { publicPageScript } from "~/lib/public-page-script";
import { useIsStaticPage } from "~/lib/static-page";
import { themeBootScript } from "~/lib/theme";
import { readToast } from "~/http/toast.server";
import "~/app.css";

export async function loader({ request, context }: Route.LoaderArgs) {
  const { toast, headers } = await readToast(request);
  return data(
    {
      appName: context.config.APP_NAME,
      appUrl: context.config.appUrl,
      cdnBaseUrl: context.config.cdnBaseUrl,
      cspNonce: context.cspNonce,
      toast,
    },
    { headers },
  );
}

/**
 * An action's toast rides in the flash cookie, so the root loader runs after every action, also a
 * refused one (React Router skips loaders after a 4xx/5xx action by default, which would hold the
 * error toast back until the next navigation).
 */
export function shouldRevalidate({ formMethod, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return formMethod !== undefined && formMethod.toUpperCase() !== "GET" ? true : defaultShouldRevalidate;
}

export type RootLoaderData = Awaited<ReturnType<typeof loader>>["data"];

export function useRootData() {
  return useRouteLoaderData<typeof loader>("root");
}

export function Layout({ children }: { children: React.ReactNode }) {
  const root = useRouteLoaderData<typeof loader>("root");
  const nonce = root?.cspNonce;
  const staticPage = useIsStaticPage();
  return (
    // Dark unless the boot script says otherwise: visitors without JavaScript get the brand's dark look.
    <html lang="en" className="dark" suppressHydrationWarning>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#17181d" />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        <script nonce={nonce} dangerouslySetInnerHTML={{ __html: themeBootScript }} />
        <Meta />
        <Links />
      </head>
      <body className="min-h-screen">
        {children}
        {staticPage ? (
          <script nonce={nonce} dangerouslySetInnerHTML={{ __html: publicPageScript(root?.toast ?? null) }} />
        ) : (
          <>
            <ScrollRestoration nonce={nonce} />
            <Scripts nonce={nonce} />
          </>
        )}
      </body>
    </html>
  );
}

export default function App() {
  const { toast } = useLoaderData<typeof loader>();
  const staticPage = useIsStaticPage();
  return (
    <ThemeProvider>
      <TooltipProvider>
        <Outlet />
        {staticPage ? null : <Toaster flash={toast} />}
      </TooltipProvider>
    </ThemeProvider>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const title = isRouteErrorResponse(error) ? `${error.status} ${error.statusText}` : "Something went wrong";
  const detail = isRouteErrorResponse(error)
    ? typeof error.data === "string"
      ? error.data
      : "The request could not be completed."
    : "An unexpected error occurred. Please try again.";
  return (
    <main className="flex min-h-screen flex-col items-center justify-center gap-4 p-8 text-center">
      <title>{`${title} | Stash`}</title>
      <h1 className="text-3xl font-bold">{title}</h1>
      <p className="text-muted-foreground">{detail}</p>
      <a href="/" className="text-primary underline underline-offset-4">
        Return to Home
      </a>
    </main>
  );
}
