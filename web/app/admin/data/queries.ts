/**
 * The console's reads and writes, as PostgREST requests through
 * supabase-js's from(...): each list asks for one page (.range) with the
 * exact total (count: 'exact', the Content-Range header), newest first, and
 * its export for every row of the same filter as CSV (.csv()). The columns
 * are literal strings, so the typed client checks them against database.ts
 * and types the rows; a read is aborted with .abortSignal(signal).
 */
import type { InboxFilter } from "~/content/console";
import { pageRange } from "./paging";
import type { ListParams } from "../route";
import { ilikeAny, normalizeSearch } from "./search";
import type { ConsoleClient } from "./client";
import { CSV_COLUMNS, MESSAGE_COLUMNS, SEARCH_COLUMNS, type Update } from "./tables";

type Filterable<Q> = {
  eq(column: string, value: unknown): Q;
  is(column: string, value: null | boolean): Q;
  not(column: string, operator: string, value: unknown): Q;
  or(filters: string): Q;
};

/** abortable lets signal abort the request of query (none without a signal). */
function abortable<Q extends { abortSignal(signal: AbortSignal): Q }>(query: Q, signal?: AbortSignal): Q {
  return signal ? query.abortSignal(signal) : query;
}

/** inboxFilter narrows a messages query to one filter of the inbox. */
export function inboxFilter<Q extends Filterable<Q>>(query: Q, filter: InboxFilter): Q {
  switch (filter) {
    case "open":
      return query.eq("spam", false).is("handled_at", null);
    case "handled":
      return query.eq("spam", false).not("handled_at", "is", null);
    case "spam":
      return query.eq("spam", true);
    case "all":
      return query;
  }
}

/** searchFilter narrows a query to rows whose columns hold q; no filter for an empty q. */
export function searchFilter<Q extends Filterable<Q>>(query: Q, columns: readonly string[], q: string): Q {
  return normalizeSearch(q) ? query.or(ilikeAny(columns, q)) : query;
}

/** messagesQuery selects what the inbox shows for params: filtered and searched, newest first. */
function messagesQuery<C extends string>(client: ConsoleClient, columns: C, params: ListParams<InboxFilter>, options?: { count: "exact"; head?: boolean }) {
  const q = client.from("contact_messages").select(columns, options);
  return searchFilter(inboxFilter(q, params.filter), SEARCH_COLUMNS.contact_messages, params.q).order("received_at", { ascending: false });
}

/** inboxPage is one page of the inbox with the total. */
export function inboxPage(client: ConsoleClient, params: ListParams<InboxFilter>) {
  const { from, to } = pageRange(params.page);
  return messagesQuery(client, MESSAGE_COLUMNS, params, { count: "exact" }).range(from, to);
}

/** inboxCsv is every message of the inbox's filter and search, as CSV. */
export function inboxCsv(client: ConsoleClient, params: ListParams<InboxFilter>, signal?: AbortSignal) {
  return abortable(messagesQuery(client, CSV_COLUMNS.contact_messages, params), signal).csv();
}

/** openCount counts the messages neither handled nor spam (HEAD with count=exact). */
export function openCount(client: ConsoleClient) {
  return messagesQuery(client, "id", { q: "", filter: "open", page: 1 }, { count: "exact", head: true });
}

/** messageById reads one message (as a list of at most one: the subset has no single-object responses). */
export function messageById(client: ConsoleClient, id: string) {
  return client.from("contact_messages").select(MESSAGE_COLUMNS).eq("id", id).limit(1);
}

/** A change staff can make to a message: the only columns rest/v1 lets them write (tables.go's Patch columns). */
export type MessageChange = Update<"contact_messages">;

/** markHandled records who handled a message and when; reopen clears both. */
export function handledChange(handled: boolean, by: string, now: Date): MessageChange {
  return handled ? { handled_at: now.toISOString(), handled_by: by } : { handled_at: null, handled_by: null };
}

/** updateMessage PATCHes one message and returns it as stored (Prefer: return=representation). */
export function updateMessage(client: ConsoleClient, id: string, change: MessageChange) {
  return client.from("contact_messages").update(change).eq("id", id).select(MESSAGE_COLUMNS);
}

/** The waitlist's filter: every product, or one product's id. */
export const ALL_PRODUCTS = "all";

/** productFilter narrows a waitlist query to one product, or none for ALL_PRODUCTS. */
function productFilter<Q extends Filterable<Q>>(query: Q, product: string): Q {
  return product === ALL_PRODUCTS ? query : query.eq("product_id", product);
}

function waitlistQuery<C extends string>(client: ConsoleClient, columns: C, params: ListParams, count?: "exact") {
  const q = client.from("waitlist").select(columns, count ? { count } : undefined);
  return searchFilter(productFilter(q, params.filter), SEARCH_COLUMNS.waitlist, params.q).order("joined_at", { ascending: false });
}

/** waitlistPage is one page of waitlist entries with the total. */
export function waitlistPage(client: ConsoleClient, params: ListParams) {
  const { from, to } = pageRange(params.page);
  return waitlistQuery(client, CSV_COLUMNS.waitlist, params, "exact").range(from, to);
}

export function waitlistCsv(client: ConsoleClient, params: ListParams, signal?: AbortSignal) {
  return abortable(waitlistQuery(client, CSV_COLUMNS.waitlist, params), signal).csv();
}

/** waitlistCount counts one product's sign-ups (HEAD with count=exact). */
export function waitlistCount(client: ConsoleClient, productId: string) {
  return client.from("waitlist").select("email", { count: "exact", head: true }).eq("product_id", productId);
}

/** waitlistCounts counts each product's sign-ups: the counts in the products' order, or the first failure. */
export async function waitlistCounts(client: ConsoleClient, productIds: readonly string[], signal?: AbortSignal) {
  const answers = await Promise.all(productIds.map((id) => abortable(waitlistCount(client, id), signal)));
  const failed = answers.find((a) => a.error);
  if (failed) return { data: null, error: failed.error, count: null, status: failed.status };
  return { data: answers.map((a) => a.count ?? 0), error: null, count: null, status: 200 };
}

function subscribersQuery<C extends string>(client: ConsoleClient, columns: C, params: ListParams, count?: "exact") {
  const q = client.from("subscribers").select(columns, count ? { count } : undefined);
  return searchFilter(q, SEARCH_COLUMNS.subscribers, params.q).order("subscribed_at", { ascending: false });
}

/** subscribersPage is one page of subscribers with the total. */
export function subscribersPage(client: ConsoleClient, params: ListParams) {
  const { from, to } = pageRange(params.page);
  return subscribersQuery(client, CSV_COLUMNS.subscribers, params, "exact").range(from, to);
}

export function subscribersCsv(client: ConsoleClient, params: ListParams, signal?: AbortSignal) {
  return abortable(subscribersQuery(client, CSV_COLUMNS.subscribers, params), signal).csv();
}
