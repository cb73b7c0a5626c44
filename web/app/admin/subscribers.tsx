/** The newsletter's subscribers, searchable, newest first. */
import { useCallback } from "react";
import { subscribersCopy } from "~/content/console";
import { useConsole } from "./console-context";
import { DataTable } from "./data-table";
import { ListScreen } from "./list-screen";
import { useLiveChanges } from "./live";
import { subscribersCsv, subscribersPage } from "./queries";
import { formatDateTime } from "./time";
import { useListParams } from "./use-list-params";
import { useRequest } from "./use-request";

const FILTERS = ["all"] as const;

export function SubscribersScreen() {
  const { client } = useConsole();
  const list = useListParams(FILTERS);
  const { params } = list;
  const request = useRequest(JSON.stringify(params), () => subscribersPage(client, params));
  const { reload } = request;
  useLiveChanges("subscribers", useCallback(() => reload(), [reload]));
  return (
    <ListScreen
      title={subscribersCopy.title}
      request={request}
      list={list}
      empty={params.q ? subscribersCopy.noMatch(params.q) : subscribersCopy.empty}
      search={{ label: subscribersCopy.searchLabel, placeholder: subscribersCopy.searchPlaceholder }}
      csv={{ name: "subscribers", request: () => subscribersCsv(client, params) }}
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
