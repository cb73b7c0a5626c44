/** The newsletter's subscribers, searchable, newest first. */
import { useCallback } from "react";
import { subscribersCopy } from "~/content/console";
import { useConsole } from "./console-context";
import { csvFileName } from "./csv";
import { DataTable } from "./data-table";
import { ExportButton, SearchBox } from "./list-controls";
import { ListScreen } from "./list-screen";
import { useLiveChanges } from "./live";
import { subscribersCsv, subscribersPage } from "./queries";
import { formatDateTime } from "./time";
import { useListParams } from "./use-list-params";
import { useRequest } from "./use-request";

const FILTERS = ["all"] as const;

export function SubscribersScreen() {
  const { client } = useConsole();
  const { params, setQuery, setPage } = useListParams(FILTERS);
  const request = useRequest(JSON.stringify(params), () => subscribersPage(client, params));
  const { reload } = request;
  useLiveChanges("subscribers", useCallback(() => reload(), [reload]));
  return (
    <ListScreen
      title={subscribersCopy.title}
      request={request}
      page={params.page}
      onPage={setPage}
      empty={params.q ? subscribersCopy.noMatch(params.q) : subscribersCopy.empty}
      exportButton={<ExportButton request={() => subscribersCsv(client, params)} fileName={() => csvFileName("subscribers", params, new Date())} />}
      controls={<SearchBox label={subscribersCopy.searchLabel} placeholder={subscribersCopy.searchPlaceholder} value={params.q} onSearch={setQuery} />}
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
