/** The waitlist: sign-ups per coming-soon product, and the entries, searchable, newest first. */
import { waitlistCopy } from "~/content/console";
import { products } from "~/content/products";
import { cn } from "~/lib/cn";
import { useConsole } from "../data/console-context";
import { DataTable } from "../ui/data-table";
import { ListScreen } from "./list-screen";
import { ALL_PRODUCTS, waitlistCounts, waitlistCsv, waitlistPage } from "../data/queries";
import { formatDateTime } from "../time";
import { useListParams } from "./use-list-params";
import { useRead } from "../data/use-read";

/** The products with a waitlist: those coming soon (internal/signup/waitlist-products.json holds the same ids). */
const waitlistProducts = products.filter((p) => p.status === "coming-soon").map((p) => ({ id: p.id, name: p.name }));
const FILTERS: [string, ...string[]] = [ALL_PRODUCTS, ...waitlistProducts.map((p) => p.id)];
const productName = (id: string) => waitlistProducts.find((p) => p.id === id)?.name ?? id;

export function WaitlistScreen() {
  const { client } = useConsole();
  const list = useListParams(FILTERS);
  const { params } = list;
  const request = useRead({ table: "waitlist", read: "page", params }, (signal) => waitlistPage(client, params).abortSignal(signal));
  const counts = useRead({ table: "waitlist", read: "counts" }, (signal) => waitlistCounts(client, waitlistProducts.map((p) => p.id), signal));
  const empty = params.q ? waitlistCopy.noMatch(params.q) : waitlistCopy.empty;
  return (
    <ListScreen
      title={waitlistCopy.title}
      request={request}
      list={list}
      empty={empty}
      search={{ label: waitlistCopy.searchLabel, placeholder: waitlistCopy.searchPlaceholder }}
      filter={{ label: waitlistCopy.filterLabel, options: FILTERS.map((f) => ({ value: f, label: f === ALL_PRODUCTS ? waitlistCopy.all : productName(f) })) }}
      csv={{ name: "waitlist", request: (signal) => waitlistCsv(client, params, signal) }}
      summary={
        <section aria-label={waitlistCopy.countsLabel}>
          <ul className="grid grid-cols-2 gap-3">
            {waitlistProducts.map((p, i) => (
              <li key={p.id} className="rounded-xl border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900/40">
                <p className="text-sm font-medium text-slate-600 dark:text-slate-400">{p.name}</p>
                <p className={cn("mt-1 text-2xl font-bold", counts.phase !== "done" && "text-slate-400")} data-testid={`waitlist-count-${p.id}`}>
                  {counts.phase === "done" ? waitlistCopy.people(counts.data[i] ?? 0) : "–"}
                </p>
              </li>
            ))}
          </ul>
        </section>
      }
    >
      {(rows) => (
        <DataTable
          caption={waitlistCopy.title}
          columns={[waitlistCopy.columns.email, waitlistCopy.columns.product, waitlistCopy.columns.joined]}
          rows={rows.map((e) => ({
            key: `${e.product_id}/${e.email}`,
            cells: [e.email, productName(e.product_id), <time dateTime={e.joined_at}>{formatDateTime(e.joined_at)}</time>],
          }))}
        />
      )}
    </ListScreen>
  );
}
