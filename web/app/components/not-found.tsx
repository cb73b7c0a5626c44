import { notFound } from "~/content/site";
import { buttonClass } from "~/components/ui/button";

/** NotFound is the body of the 404 page. */
export function NotFound() {
  return (
    <div className="mx-auto flex max-w-2xl flex-col items-center px-4 py-24 text-center sm:py-32">
      <p className="text-sm font-semibold tracking-widest text-brand-700 dark:text-brand-300">404</p>
      <h1 className="mt-3 text-4xl font-bold tracking-tight text-slate-900 sm:text-5xl dark:text-white">{notFound.title}</h1>
      <p className="mt-4 text-lg text-slate-600 dark:text-slate-300">{notFound.text}</p>
      <a href={notFound.home.href} className={buttonClass("primary", "lg", "mt-8")}>
        {notFound.home.label}
      </a>
    </div>
  );
}
