import type { ProcessStep as ProcessStepData } from "~/content/types";
import { Icon } from "~/components/ui/icon";
import { CheckList } from "~/components/ui/check-list";
import { Image } from "~/components/ui/image";
import { cn } from "~/lib/cn";

/**
 * ProcessStep is one step of the studio's timeline, reachable by its anchor
 * (/studio#scale). On wide screens the image alternates sides.
 */
export function ProcessStep({ step, stepLabel }: { step: ProcessStepData; stepLabel: string }) {
  return (
    <li id={step.id} className="relative scroll-mt-24">
      <div className="grid items-center gap-8 lg:grid-cols-2 lg:gap-16">
        <div className={cn(step.isReversed && "lg:order-last")}>
          <div className="flex items-center gap-3">
            <span
              aria-hidden="true"
              className="flex size-12 shrink-0 items-center justify-center rounded-full bg-brand-600 text-lg font-bold text-white shadow-md ring-4 ring-brand-100 dark:ring-brand-500/20"
            >
              {step.stepNumber}
            </span>
            <span className="inline-flex size-10 items-center justify-center rounded-xl bg-brand-50 text-brand-700 dark:bg-brand-500/15 dark:text-brand-300">
              <Icon name={step.icon} className="size-5" />
            </span>
          </div>
          <h3 id={`${step.id}-heading`} className="mt-5 text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl dark:text-white">
            {/* One text node: split ones lose their spaces in the accessible name ("Step1:"). */}
            <span className="sr-only">{`${stepLabel} ${step.stepNumber}: `}</span>
            {step.title}
          </h3>
          <p className="mt-4 text-lg text-slate-600 dark:text-slate-300">{step.description}</p>
          <CheckList items={step.bulletPoints} className="mt-6" />
        </div>
        <Image
          src={step.imageSrc}
          alt={step.imageAlt}
          width={640}
          height={420}
          className="h-auto w-full rounded-2xl shadow-lg ring-1 ring-slate-900/5 dark:ring-white/10"
        />
      </div>
    </li>
  );
}
