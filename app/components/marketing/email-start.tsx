import { ArrowRight } from "lucide-react";
import { Form } from "react-router";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { HOME } from "~/lib/content/marketing";

/**
 * A plain GET form to /auth: the typed e-mail only travels in the URL (?email=…) to prefill the
 * sign-up form, and is sent nowhere else. Works without JavaScript.
 */
export function EmailStart() {
  return (
    <Form method="get" action="/auth" className="flex w-full max-w-md flex-col gap-2 sm:flex-row">
      <label htmlFor="hero-email" className="sr-only">
        {HOME.emailLabel}
      </label>
      <Input id="hero-email" name="email" type="email" autoComplete="email" placeholder={HOME.emailPlaceholder} className="h-11 bg-background/70" />
      <Button type="submit" size="lg" className="shrink-0">
        {HOME.primaryCta}
        <ArrowRight aria-hidden="true" />
      </Button>
    </Form>
  );
}
