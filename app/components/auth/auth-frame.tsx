import type { ReactNode } from "react";
import { Link } from "react-router";
import { Card, CardContent, CardDescription, CardHeader } from "~/components/ui/card";

/** The centred, branded frame shared by /auth and the confirmation and reset pages. */
export function AuthFrame({ appName, children, footer }: { appName: string; children: ReactNode; footer?: ReactNode }) {
  return (
    <main className="flex min-h-screen items-center justify-center p-4">
      <div className="w-full max-w-md space-y-6">
        <div className="text-center">
          <Link to="/" className="text-3xl font-black tracking-tight text-primary">
            {appName}
          </Link>
          <p className="mt-2 text-sm text-muted-foreground">Media hosting for your FiveM server</p>
        </div>
        {children}
        {footer}
      </div>
    </main>
  );
}

export function AuthCard({ title, description, children }: { title: string; description?: ReactNode; children?: ReactNode }) {
  return (
    <Card>
      <CardHeader>
        <h1 className="text-xl font-semibold leading-none tracking-tight">{title}</h1>
        {description ? <CardDescription>{description}</CardDescription> : null}
      </CardHeader>
      {children ? <CardContent className="space-y-4">{children}</CardContent> : null}
    </Card>
  );
}

export function FormNotice({ message }: { message?: string | null }) {
  if (!message) return null;
  return (
    <p role="status" className="rounded-md border border-primary/40 bg-primary/10 px-3 py-2 text-sm">
      {message}
    </p>
  );
}
