import { cn } from "~/lib/cn";

/** What a form's last send came to, kept on the page after its toast has gone. */
export type FormNoteData = { tone: "success" | "error"; text: string };

/**
 * FormNote shows a form's last outcome under it until the visitor changes
 * the form again. It is not a live region (the toast already announced it);
 * give its id to the field's or button's aria-describedby so that it is
 * read again with them.
 */
export function FormNote({ id, note, className }: { id: string; note: FormNoteData | null; className?: string }) {
  return (
    <p
      id={id}
      data-tone={note?.tone}
      hidden={!note}
      className={cn("text-sm font-medium", note?.tone === "error" ? "text-red-700 dark:text-red-400" : "text-emerald-700 dark:text-emerald-400", className)}
    >
      {note?.text}
    </p>
  );
}

/** noteText joins a toast's title and description into one sentence for the page. */
export const noteText = (title: string, description?: string) => (description ? `${title}: ${description}` : title);
