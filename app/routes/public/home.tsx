import { Link } from "react-router";
import { buttonVariants } from "~/components/ui/button";
import { pageTitle } from "~/lib/site";
import type { Route } from "./+types/home";

export async function loader({ context }: Route.LoaderArgs) {
  return { appName: context.config.APP_NAME };
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [
    { title: pageTitle("FiveM Media CDN", loaderData?.appName) },
    { name: "description", content: "Permanent media hosting for FiveM roleplay servers: screenshots, photos, video and audio from your scripts." },
  ];
}

export default function Home({ loaderData }: Route.ComponentProps) {
  return (
    <main className="mx-auto flex min-h-screen max-w-4xl flex-col items-start justify-center gap-6 p-8">
      <h1 className="text-4xl font-black tracking-tight md:text-6xl">
        {loaderData.appName}: media hosting your scripts can rely on
      </h1>
      <p className="max-w-2xl text-lg text-muted-foreground">
        Phone photos, MDT evidence, security camera footage and screenshots, uploaded by your FiveM scripts and served
        from links that never expire.
      </p>
      <Link to="/auth" className={buttonVariants({ size: "lg" })}>
        Get Started Free
      </Link>
    </main>
  );
}
