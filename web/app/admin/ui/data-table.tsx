/** DataTable is a plain table of text rows; under 640 px each row stacks its cells, each with its column's name. */
import type { ReactNode } from "react";

export function DataTable({ caption, columns, rows }: { caption: string; columns: readonly string[]; rows: readonly { key: string; cells: readonly ReactNode[] }[] }) {
  return (
    <div className="overflow-hidden rounded-xl border border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900/40">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="hidden bg-slate-50 text-slate-600 sm:table-header-group dark:bg-slate-900 dark:text-slate-400">
          <tr>
            {columns.map((c) => (
              <th key={c} scope="col" className="px-4 py-2.5 font-semibold">
                {c}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-200 dark:divide-slate-800">
          {rows.map((r) => (
            <tr key={r.key} className="block px-4 py-3 sm:table-row sm:p-0">
              {r.cells.map((cell, i) => (
                <td key={columns[i]} className="block break-all sm:table-cell sm:px-4 sm:py-2.5 sm:break-normal">
                  <span className="mr-2 text-slate-500 sm:hidden dark:text-slate-400">{columns[i]}:</span>
                  {cell}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
