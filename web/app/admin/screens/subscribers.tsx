/** The newsletter's subscribers, searchable, newest first. */
import { subscribersCopy } from "~/content/console";
import { useConsole } from "../data/console-context";
import { DataTable } from "../ui/data-table";
import { ListScreen } from "./list-screen";
import { subscribersCsv, subscribersPage } from "../data/queries";
import { formatDateTime } from "../time";
import { useListParams } from "./use-list-params";
import { useRead } from "../data/use-read";

const FILTERS = ["all"] as const;

export function SubscribersScreen() {
  const { client } = useConsole();
  const list = useListParams(FILTERS);
  const { params } = list;
  const request = useRead({ table: "subscribers", read: "page", params }, (signal) => subscribersPage(client, params).abortSignal(signal));
  return (
    <ListScreen
      title={subscribersCopy.title}
      request={request}
      list={list}
      empty={params.q ? subscribersCopy.noMatch(params.q) : subscribersCopy.empty}
      search={{ label: subscribersCopy.searchLabel, placeholder: subscribersCopy.searchPlaceholder }}
      csv={{ name: "subscribers", request: (signal) => subscribersCsv(client, params, signal) }}
    >
      {(rows) => (
        <DataTable
          caption={subscribersCopy.title}
          columns={[subscribersCopy.columns.email, subscribersCopy.columns.subscribed]}
          rows={rows.map((s) => ({ key: s.email, cells: [s.email, <time dateTime={s.subscribed_at}>{formatDateTime(s.subscribed_at)}</time>] }))}
        />
      )}
    </ListScreen>
  );
}
