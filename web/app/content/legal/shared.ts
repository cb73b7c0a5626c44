/** Facts every legal page shares. */
import { studio } from "../site";

export const LAST_UPDATED = "May 16, 2025";
export const LAST_UPDATED_ISO = "2025-05-16";

/** The labels of the shared legal page layout. */
export const legalLabels = {
  lastUpdated: "Last updated",
  toc: "Table of contents",
  backToTop: "Back to top",
} as const;

export const company = studio.legalName;
export const contactLine = `${studio.legalName}, ${studio.location}. Email: ${studio.email}. Phone: ${studio.phone}.`;
