import { Link, redirect, useLocation, useSearchParams } from "react-router";
import { DiscordButton, OrDivider } from "~/components/auth/auth-fields";
import { AuthFrame } from "~/components/auth/auth-frame";
import { SignInForm } from "~/components/auth/sign-in-form";
import { SignUpForm } from "~/components/auth/sign-up-form";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "~/components/ui/tabs";
import { canonicalUrl } from "~/lib/seo";
import { pageTitle } from "~/lib/site";
import { handleSignIn, handleSignUp, type AuthFormState } from "~/routes/auth/auth-actions.server";
import { formError } from "~/http/action-results.server";
import { getOptionalUser, safeRedirectPath } from "~/http/guards.server";
import type { Route } from "./+types/auth";

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const redirectTo = safeRedirectPath(url.searchParams.get("redirectTo"));
  if (await getOptionalUser(request, context)) throw redirect(redirectTo);
  return { appName: context.config.APP_NAME, appUrl: context.config.appUrl, discordEnabled: context.config.discordEnabled, redirectTo };
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.clone().formData();
  switch (form.get("intent")) {
    case "signin":
      return handleSignIn(request, form, context);
    case "signup":
      return handleSignUp(form, context);
    default:
      return formError<AuthFormState>("Unknown form action", 400, { intent: null });
  }
}

export function headers({ actionHeaders, loaderHeaders }: Route.HeadersArgs) {
  return actionHeaders.has("Retry-After") ? actionHeaders : loaderHeaders;
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [
    { title: pageTitle("Sign In", loaderData?.appName) },
    { name: "description", content: "Sign in or create an account to host your FiveM server's media." },
    // One address for the page whatever its tab or redirectTo, as every public page has.
    ...(loaderData ? [{ tagName: "link", rel: "canonical", href: canonicalUrl(loaderData.appUrl, "/auth") }] : []),
  ];
}

type Tab = "signin" | "signup";

export default function AuthPage({ loaderData, actionData }: Route.ComponentProps) {
  const { appName, discordEnabled, redirectTo } = loaderData;
  const [searchParams, setSearchParams] = useSearchParams();
  const location = useLocation();
  const tab: Tab = searchParams.get("tab") === "signup" ? "signup" : "signin";
  const tabHref = (next: Tab) => {
    const params = new URLSearchParams(searchParams);
    if (next === "signup") params.set("tab", "signup");
    else params.delete("tab");
    const query = params.toString();
    return query ? `?${query}` : "?";
  };
  const errorFor = (intent: Tab) => (actionData?.intent === intent ? actionData.error : null);

  return (
    <AuthFrame
      appName={appName}
      footer={
        <p className="px-6 text-center text-xs text-muted-foreground">
          By continuing, you agree to our{" "}
          <Link to="/terms" className="underline underline-offset-4 hover:text-foreground">
            Terms of Service
          </Link>{" "}
          and{" "}
          <Link to="/privacy" className="underline underline-offset-4 hover:text-foreground">
            Privacy Policy
          </Link>
          .
        </p>
      }
    >
      <Card>
        <Tabs
          value={tab}
          onValueChange={(value) => setSearchParams(new URLSearchParams(tabHref(value as Tab)), { replace: true })}
        >
          <CardHeader className="space-y-4">
            <TabsList className="grid w-full grid-cols-2">
              <TabsTrigger value="signin" asChild>
                <Link to={tabHref("signin")} replace>
                  Sign In
                </Link>
              </TabsTrigger>
              <TabsTrigger value="signup" asChild>
                <Link to={tabHref("signup")} replace>
                  Sign Up
                </Link>
              </TabsTrigger>
            </TabsList>
            <div>
              <CardTitle>{tab === "signin" ? "Welcome back" : "Create your account"}</CardTitle>
              <CardDescription>
                {tab === "signin"
                  ? "Sign in to manage your servers and media."
                  : "New accounts get 5GB free. No credit card needed."}
              </CardDescription>
            </div>
          </CardHeader>
          <CardContent>
            <TabsContent value="signin" className="mt-0">
              <SignInForm
                key={location.key}
                redirectTo={redirectTo}
                serverError={errorFor("signin")}
                defaultEmail={actionData?.intent === "signin" ? actionData.fields?.email : undefined}
                offerResend={actionData?.intent === "signin" && actionData.offerResend}
              />
            </TabsContent>
            <TabsContent value="signup" className="mt-0">
              <SignUpForm
                key={location.key}
                serverError={errorFor("signup")}
                defaults={actionData?.intent === "signup" ? actionData.fields : undefined}
              />
            </TabsContent>
            {discordEnabled ? (
              <>
                <OrDivider />
                <DiscordButton redirectTo={redirectTo} />
              </>
            ) : null}
          </CardContent>
        </Tabs>
      </Card>
    </AuthFrame>
  );
}
