import {
  BarChart3,
  Code2,
  Cpu,
  Flag,
  Globe,
  Lightbulb,
  Lock,
  Plug,
  Rocket,
  Search,
  ShieldCheck,
  TrendingUp,
  Trophy,
  Users,
  Workflow,
  Zap,
  type LucideIcon,
} from "lucide-react";
import type { IconName } from "~/content/types";

const icons: Record<IconName, LucideIcon> = {
  lightbulb: Lightbulb,
  code: Code2,
  "trending-up": TrendingUp,
  trophy: Trophy,
  shield: ShieldCheck,
  workflow: Workflow,
  cpu: Cpu,
  plug: Plug,
  lock: Lock,
  zap: Zap,
  "bar-chart": BarChart3,
  globe: Globe,
  users: Users,
  rocket: Rocket,
  search: Search,
  flag: Flag,
};

/** Icon draws a named icon from the content modules; it is decorative. */
export function Icon({ name, className }: { name: IconName; className?: string }) {
  const Component = icons[name];
  return <Component aria-hidden="true" focusable="false" className={className} />;
}
