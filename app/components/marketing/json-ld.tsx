import { useRootData } from "~/root";
import { serializeJsonLd } from "~/lib/seo";

/**
 * Structured data for search engines. Carries the request's CSP nonce like every inline script,
 * so the page CSP stays strict; browsers hide nonces from the DOM, hence the hydration exemption.
 */
export function JsonLd({ data }: { data: Record<string, unknown> | Record<string, unknown>[] }) {
  const nonce = useRootData()?.cspNonce;
  return (
    <script
      type="application/ld+json"
      nonce={nonce}
      suppressHydrationWarning
      dangerouslySetInnerHTML={{ __html: serializeJsonLd(data) }}
    />
  );
}
