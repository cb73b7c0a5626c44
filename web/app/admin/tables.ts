/** The tables rest/v1 exposes to the console, their rows and columns. */

export type ContactMessage = {
  id: string;
  received_at: string;
  name: string;
  email: string;
  company: string | null;
  phone: string | null;
  message: string;
  spam: boolean;
  handled_at: string | null;
  handled_by: string | null;
};

export type WaitlistEntry = { product_id: string; email: string; joined_at: string };

export type Subscriber = { email: string; subscribed_at: string };

export const MESSAGE_COLUMNS = "id,received_at,name,email,company,phone,message,spam,handled_at,handled_by";

/**
 * The columns of each CSV export: those of "studio … list --format csv", in
 * its order, so the two can be compared row for row.
 */
export const CSV_COLUMNS = {
  contact_messages: "id,received_at,spam,name,email,company,phone,message",
  waitlist: "product_id,email,joined_at",
  subscribers: "email,subscribed_at",
} as const;

/** The columns a search box looks in, per table. */
export const SEARCH_COLUMNS = {
  contact_messages: ["name", "email", "company", "message"],
  waitlist: ["email", "product_id"],
  subscribers: ["email"],
} as const;

/** messageStatus is where a message sits: spam before handled. */
export function messageStatus(m: Pick<ContactMessage, "spam" | "handled_at">): "spam" | "handled" | "open" {
  if (m.spam) return "spam";
  return m.handled_at ? "handled" : "open";
}
