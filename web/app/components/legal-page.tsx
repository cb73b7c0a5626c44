import type { LegalBlock, LegalDocument } from "~/content/types";
import { legalLabels } from "~/content/legal/shared";

/**
 * LegalPage lays out a legal text: title, last-updated date, introduction, a
 * table of contents linking to the numbered sections, and the sections.
 */
export function LegalPage({ doc }: { doc: LegalDocument }) {
  return (
    <article className="mx-auto max-w-6xl px-4 py-12 sm:px-6 sm:py-16 lg:px-8">
      <header className="max-w-3xl border-b border-slate-200 pb-8 dark:border-slate-800">
        <h1 className="text-4xl font-bold tracking-tight text-slate-900 sm:text-5xl dark:text-white">{doc.title}</h1>
        <p className="mt-4 text-sm font-medium text-slate-600 dark:text-slate-400">
          {legalLabels.lastUpdated} <time dateTime={doc.lastUpdatedIso}>{doc.lastUpdated}</time>
        </p>
        {doc.intro.map((text) => (
          <p key={text} className="mt-4 text-lg text-slate-700 dark:text-slate-300">
            {text}
          </p>
        ))}
      </header>

      <div className="mt-10 grid gap-10 lg:grid-cols-[16rem_minmax(0,1fr)] lg:gap-16">
        <nav aria-labelledby="toc-heading" className="lg:sticky lg:top-24 lg:self-start">
          <h2 id="toc-heading" className="text-sm font-semibold tracking-wide text-slate-900 uppercase dark:text-white">
            {legalLabels.toc}
          </h2>
          <ol className="mt-4 space-y-1 border-l border-slate-200 dark:border-slate-800">
            {doc.sections.map((section, i) => (
              <li key={section.id}>
                <a
                  href={`#${section.id}`}
                  className="-ml-px block border-l border-transparent py-1 pl-4 text-sm text-slate-600 hover:border-brand-600 hover:text-brand-700 focus-visible:outline-2 focus-visible:outline-brand-600 dark:focus-visible:outline-brand-300 dark:text-slate-400 dark:hover:border-brand-300 dark:hover:text-brand-200"
                >
                  {i + 1}. {section.title}
                </a>
              </li>
            ))}
          </ol>
        </nav>

        <div className="max-w-3xl space-y-12">
          {doc.sections.map((section, i) => (
            <section key={section.id} id={section.id} aria-labelledby={`${section.id}-heading`}>
              <h2 id={`${section.id}-heading`} className="text-2xl font-semibold tracking-tight text-slate-900 dark:text-white">
                {i + 1}. {section.title}
              </h2>
              <div className="mt-4 space-y-4 leading-relaxed text-slate-700 dark:text-slate-300">
                {section.blocks.map((block, j) => (
                  <Block key={j} block={block} />
                ))}
              </div>
            </section>
          ))}
        </div>
      </div>
    </article>
  );
}

/** Text in square brackets is a placeholder still to be filled in (the governing law); it is marked visibly. */
function Text({ text }: { text: string }) {
  const parts = text.split(/(\[[^\]]+\])/);
  return (
    <>
      {parts.map((part, i) =>
        i % 2 === 1 ? (
          <mark key={i} className="rounded bg-amber-100 px-1 font-semibold text-amber-900 dark:bg-amber-950 dark:text-amber-200">
            {part}
          </mark>
        ) : (
          part
        ),
      )}
    </>
  );
}

function Block({ block }: { block: LegalBlock }) {
  switch (block.kind) {
    case "p":
      return (
        <p>
          <Text text={block.text} />
        </p>
      );
    case "h3":
      return <h3 className="pt-2 text-lg font-semibold text-slate-900 dark:text-white">{block.text}</h3>;
    case "ul":
      return (
        <ul className="list-disc space-y-2 pl-6 marker:text-slate-400">
          {block.items.map((item) => (
            <li key={item}>{item}</li>
          ))}
        </ul>
      );
  }
}
