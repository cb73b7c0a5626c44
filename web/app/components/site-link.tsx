import type { ReactNode } from "react";
import type { Link as LinkData } from "~/content/types";

/** SiteLink is a link within the site; a bare anchor (#pricing) is a plain <a>. */
export function SiteLink({ link, className, children }: { link: LinkData; className?: string; children?: ReactNode }) {
  if (link.href.startsWith("#")) {
    return (
      <a href={link.href} className={className}>
        {children ?? link.label}
      </a>
    );
  }
  return (
    <a href={link.href} className={className}>
      {children ?? link.label}
    </a>
  );
}
