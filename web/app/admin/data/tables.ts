/**
 * The tables rest/v1 exposes to the console: their rows, as database.ts
 * (generated from internal/query/tables.go) types them, and the columns each
 * read asks for.
 */
import type { Database } from "./database";

type Tables = Database["public"]["Tables"];
export type TableName = keyof Tables;
export type Row<T extends TableName> = Tables[T]["Row"];
export type Update<T extends TableName> = Tables[T]["Update"];

export type ContactMessage = Row<"contact_messages">;
export type WaitlistEntry = Row<"waitlist">;
export type Subscriber = Row<"subscribers">;

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

/**
 * The table name under which the cache keeps reads of the auth service (a
 * person's factors, passkeys and sign-in methods): a change to them, or a
 * new access token, invalidates it.
 */
export const AUTH_TABLE = "auth";

/** The table name under which the cache keeps reads of storage/v1 (buckets, folders). */
export const STORAGE_TABLE = "storage";
