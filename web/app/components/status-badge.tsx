import type { StatusBadgeData } from "~/content/types";
import { Badge } from "~/components/ui/badge";
import { Tooltip } from "~/components/ui/tooltip";

/**
 * StatusBadge shows a status ('Live', 'Acquired' …). When the status has an
 * explanation, the badge becomes focusable and shows it as a tooltip on
 * hover and on keyboard focus.
 */
export function StatusBadge({
  badge,
  tooltipAlign,
  className,
}: {
  badge: StatusBadgeData;
  tooltipAlign?: "center" | "end";
  className?: string;
}) {
  if (!badge.tooltip) {
    return (
      <Badge tone={badge.tone} className={className}>
        {badge.label}
      </Badge>
    );
  }
  return (
    <Tooltip content={badge.tooltip} align={tooltipAlign}>
      {(trigger) => (
        <Badge tone={badge.tone} className={className} {...trigger}>
          {badge.label}
        </Badge>
      )}
    </Tooltip>
  );
}
