/**
 * The signed-in console: the header with the navigation (with the count of
 * open messages) and the theme toggle, the screen of the current URL, and
 * the toasts. New contact messages are announced on every screen.
 */
import { lazy, Suspense, useCallback, useEffect, useRef } from "react";
import { useHeaderHeight } from "./ui/header-height";
import { ExternalLink, House } from "lucide-react";
import { consoleNav, consoleShell, inboxCopy, openCountLabel } from "~/content/console";
import { Logo } from "~/components/logo";
import { ThemeToggle } from "~/components/theme-toggle";
import { Toaster, toast } from "~/components/ui/toast";
import { cn } from "~/lib/cn";
import { AccountScreen } from "./screens/account";
import { useConsole } from "./data/console-context";
import { FilesScreen } from "./screens/files";
import { InboxScreen } from "./screens/inbox";
import { LivePaused } from "./screens/list-screen";
import type { Change } from "./data/live";
import { MessageScreen } from "./screens/message-view";
import { openCount } from "./data/queries";
import { CONSOLE_ROOT, parseRoute, type Route } from "./route";
import { useDocumentTitle } from "./ui/document-title";
import { ConsoleLink, useLocation } from "./router";
import { EmptyState, LoadingState } from "./ui/states";
import { SubscribersScreen } from "./screens/subscribers";
import { useLiveChanges, useRead } from "./data/use-read";
import { ScreenBoundary } from "./ui/screen-boundary";
import { WaitlistScreen } from "./screens/waitlist";

/** The analytics screen, with its chart library, loads when it is opened: /admin's first load does not carry it. */
const AnalyticsScreen = lazy(() => import("./screens/analytics").then((m) => ({ default: m.AnalyticsScreen })));

/** navScreen is the navigation entry a route belongs to (a message belongs to the inbox). */
function navScreen(r: Route): string {
  return r.screen === "message" ? "inbox" : r.screen;
}

/** focusScreen moves focus to the screen's heading (the main region while the screen has none yet), so keyboard and screen reader users start there. */
function focusScreen(): void {
  (document.getElementById("screen-title") ?? document.getElementById("main"))?.focus();
}

/** ConsoleShell is the signed-in console; arrived: it comes after a sign-in in this tab, whose form went away with the focus in it. */
export function ConsoleShell({ arrived = false }: { arrived?: boolean }) {
  const { client } = useConsole();
  const { pathname } = useLocation();
  const route = parseRoute(pathname);
  // Reloaded through the cache when messages change: by this console's writes or by the live feed.
  const open = useRead({ table: "contact_messages", read: "open-count" }, (signal) => openCount(client).abortSignal(signal));
  useLiveChanges(
    "contact_messages",
    useCallback((c: Change) => {
      if (c.eventType === "INSERT") toast({ title: inboxCopy.newMessage(String((c.new as { name?: unknown }).name ?? "")) });
    }, []),
  );
  // A new screen moves focus to its heading, and so does arriving from the sign-in (not a page load, where focus starts at the top).
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      if (!arrived) return;
    }
    focusScreen();
  }, [pathname, arrived]);
  const count = open.phase === "done" ? (open.count ?? 0) : undefined;
  const header = useHeaderHeight();
  return (
    <div className="flex min-h-dvh flex-col">
      <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:left-4 focus:top-4 focus:z-50 focus:rounded-md focus:bg-white focus:px-3 focus:py-2 focus:shadow dark:focus:bg-slate-900">
        {consoleShell.skip}
      </a>
      <header ref={header} data-console-header className="sticky top-0 z-40 border-b border-slate-200 bg-white/95 backdrop-blur dark:border-slate-800 dark:bg-slate-950/95">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-3 gap-y-1 px-4 py-2 sm:px-6 lg:flex-nowrap">
          <ConsoleLink href={`${CONSOLE_ROOT}/inbox`} className="flex shrink-0 items-center gap-2 rounded-md font-semibold focus-visible:outline-2 focus-visible:outline-brand-600">
            <Logo className="size-7" />
            <span>{consoleShell.name}</span>
          </ConsoleLink>
          <nav aria-label={consoleShell.navLabel} className="order-last -mx-2 w-[calc(100%+1rem)] min-w-0 lg:order-none lg:mx-0 lg:w-auto lg:flex-1">
            <ul className="flex flex-wrap items-center justify-between gap-0.5 sm:justify-start sm:gap-1">
              {consoleNav.map((item) => {
                const current = navScreen(route) === item.screen;
                return (
                  <li key={item.screen}>
                    <ConsoleLink
                      href={item.path}
                      aria-current={current ? "page" : undefined}
                      className={cn(
                        "flex items-center gap-1.5 whitespace-nowrap rounded-md px-1 py-2 text-[13px] font-medium sm:text-sm focus-visible:outline-2 focus-visible:outline-brand-600 sm:px-3",
                        current ? "bg-brand-50 text-brand-800 dark:bg-brand-900/40 dark:text-brand-100" : "text-slate-700 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800",
                      )}
                    >
                      {item.label}
                      {item.screen === "inbox" && count !== undefined && count > 0 && (
                        <span data-testid="open-count" className="rounded-full bg-brand-600 px-1.5 text-xs font-semibold text-white">
                          <span aria-hidden="true">{count}</span>
                          <span className="sr-only">{openCountLabel(count)}</span>
                        </span>
                      )}
                    </ConsoleLink>
                  </li>
                );
              })}
            </ul>
          </nav>
          {/* On a phone a house says it: its words would push the theme off the row. */}
          <a href="/" className="ml-auto flex size-10 items-center justify-center gap-1 rounded-md text-sm text-slate-600 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-brand-600 sm:size-auto sm:px-2 sm:py-2 dark:text-slate-400 dark:hover:text-white">
            <House aria-hidden="true" className="size-5 sm:hidden" />
            <span className="sr-only sm:not-sr-only">{consoleShell.backToSite}</span>
            <ExternalLink aria-hidden="true" className="hidden size-3.5 sm:block" />
          </a>
          <ThemeToggle />
        </div>
      </header>
      <main id="main" tabIndex={-1} className="mx-auto w-full max-w-6xl flex-1 px-4 py-6 focus:outline-none sm:px-6 sm:py-8">
        <LivePaused />
        <ScreenBoundary key={pathname}>
          <Screen route={route} />
        </ScreenBoundary>
      </main>
      <Toaster />
    </div>
  );
}

function Screen({ route }: { route: Route }) {
  switch (route.screen) {
    case "inbox":
      return <InboxScreen />;
    case "message":
      return <MessageScreen key={route.id} id={route.id} />;
    case "waitlist":
      return <WaitlistScreen />;
    case "subscribers":
      return <SubscribersScreen />;
    case "analytics":
      return (
        <Suspense fallback={<LoadingState />}>
          <AnalyticsScreen />
        </Suspense>
      );
    case "account":
      return <AccountScreen />;
    case "files":
      return <FilesScreen bucket={route.bucket} prefix={route.prefix} />;
    case "not-found":
      return <NotFound />;
  }
}

function NotFound() {
  useDocumentTitle(consoleShell.notFound.title);
  return (
    <section aria-labelledby="screen-title">
      <h1 id="screen-title" tabIndex={-1} className="sr-only">
        {consoleShell.notFound.title}
      </h1>
      <EmptyState {...consoleShell.notFound} />
    </section>
  );
}
