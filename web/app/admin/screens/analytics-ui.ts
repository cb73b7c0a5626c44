/** What the analytics screen's parts look like alike: a card, and quieter text. */
export const card = "rounded-xl border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900/40";
export const muted = "text-slate-600 dark:text-slate-400";
