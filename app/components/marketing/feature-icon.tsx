import { Camera, Code2, Film, Gauge, Globe, Infinity as InfinityIcon, Lock, ShieldCheck, Webhook, Zap } from "lucide-react";
import type { FeatureIcon as FeatureIconName } from "~/lib/content/marketing";

const ICONS = {
  zap: Zap,
  shield: ShieldCheck,
  globe: Globe,
  infinity: InfinityIcon,
  code: Code2,
  camera: Camera,
  film: Film,
  gauge: Gauge,
  webhook: Webhook,
  lock: Lock,
} satisfies Record<FeatureIconName, unknown>;

export function FeatureIcon({ name }: { name: FeatureIconName }) {
  const Icon = ICONS[name];
  return (
    <span className="inline-flex size-10 items-center justify-center rounded-md border border-primary/30 bg-primary/10 text-primary">
      <Icon className="size-5" aria-hidden="true" />
    </span>
  );
}
