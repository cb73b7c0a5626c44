/** Logo is the studio's mark: a meridian arc over a horizon, drawn inline. */
export function Logo({ className = "size-8" }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" aria-hidden="true" focusable="false" className={className}>
      <rect width="32" height="32" rx="8" className="fill-brand-600 dark:fill-brand-500" />
      <path d="M7 22a9 9 0 0 1 18 0" fill="none" stroke="white" strokeWidth="2.5" strokeLinecap="round" />
      <path d="M16 7v15" stroke="white" strokeWidth="2.5" strokeLinecap="round" />
      <circle cx="16" cy="13" r="2.5" fill="#67e8f9" />
    </svg>
  );
}
