/**
 * Copy of /studio/service-packages (docs/requirements.md#service-packages). The Home
 * page keeps its own reading of the entry package (MVP Sprint, 6-week build,
 * see home.ts): the requirements keep both, on different pages.
 */
import type { CallToAction, FaqEntry, FeatureCard, Link, PageIntro, ServicePackage } from "./types";
export { servicePackagesMeta } from "./page-meta";


export const servicePackagesHero = {
  eyebrow: "Service packages",
  title: "Service Packages for Every Stage",
  lead:
    "Clear scope, transparent prices and a senior team from the first sprint. Pick the package that matches where your SaaS company is today.",
} as const satisfies PageIntro;

export const packagesSection = {
  title: "Choose Your Package",
  lead: "All prices are starting prices for a typical engagement; we confirm a fixed quote after a free discovery call.",
  popularLabel: "Most Popular",
  notIncludedLabel: "Not included",
  packages: [
    {
      id: "mvp-builder",
      name: "MVP Builder",
      price: "From $25,000",
      priceNote: "6-8 weeks",
      description: "Turn a validated idea into a production-ready MVP that real customers can sign up for and pay for.",
      features: [
        { title: "Discovery and requirements workshop", included: true },
        { title: "UI/UX design and clickable prototype", included: true },
        { title: "Core feature development", included: true },
        { title: "Authentication, billing and analytics", included: true },
        { title: "Cloud deployment and technical documentation", included: true },
        { title: "Growth experiments", included: false },
        { title: "Exit readiness review", included: false },
      ],
      popular: false,
      buttonText: "Start Your MVP",
      buttonLink: "/contact",
    },
    {
      id: "scale-package",
      name: "Scale Package",
      price: "From $50,000",
      priceNote: "3-6 months",
      description: "Grow a product with early traction: more customers, better retention and a platform ready for ten times the load.",
      features: [
        { title: "Growth strategy and experiment roadmap", included: true },
        { title: "Onboarding, activation and pricing optimization", included: true },
        { title: "Performance, security and reliability hardening", included: true },
        { title: "New feature development", included: true },
        { title: "Analytics dashboards and KPI reporting", included: true },
        { title: "Hiring support for your in-house team", included: true },
        { title: "Exit readiness review", included: false },
      ],
      popular: true,
      buttonText: "Scale With Us",
      buttonLink: "/contact",
    },
    {
      id: "exit-preparation",
      name: "Exit Preparation",
      price: "From $35,000",
      priceNote: "8-12 weeks",
      description: "Prepare your company for acquisition so buyers see its full value and due diligence runs in weeks, not months.",
      features: [
        { title: "Valuation analysis and deal positioning", included: true },
        { title: "Financial and SaaS metrics clean-up", included: true },
        { title: "Technical due-diligence preparation", included: true },
        { title: "Code, security and documentation audit", included: true },
        { title: "Data room set-up", included: true },
        { title: "Buyer and investor introductions", included: true },
        { title: "Transition planning", included: true },
      ],
      popular: false,
      buttonText: "Plan Your Exit",
      buttonLink: "/contact",
    },
  ] satisfies ServicePackage[],
} as const;

export const howWeWork = {
  title: "How Every Engagement Works",
  lead: "Simple terms, predictable delivery and no surprises on the invoice.",
  cards: [
    {
      icon: "wallet",
      title: "Payment Terms",
      description: "50% deposit to start, balance at completion. No hidden fees: the quote we sign is the price you pay.",
    },
    {
      icon: "refresh",
      title: "Agile 2-Week Sprints",
      description: "We work in agile 2-week sprints, each ending with a live demo, so you see progress and can change priorities every fortnight.",
    },
    {
      icon: "users",
      title: "A Senior, Dedicated Team",
      description: "A product lead, senior engineers and a designer work on your product only, with one point of contact throughout.",
    },
  ] satisfies FeatureCard[],
} as const;

export const customSolution = {
  title: "Need a Custom Solution?",
  text:
    "Every company is different. If your product, timeline or stage does not fit a package, we will put together a team and a scope that do, from a single technical audit to a long-term co-founding partnership.",
  points: ["Technical due diligence for investors", "Fractional CTO and product leadership", "Rescue and re-platforming of existing products"],
  link: { label: "Discuss Your Needs", href: "/contact" } satisfies Link,
} as const;

export const packagesFaq = {
  title: "Frequently Asked Questions",
  lead: "What founders usually ask before working with us.",
  entries: [
    {
      id: "timeline",
      question: "How long does a typical MVP take?",
      answer:
        "Most MVPs are live in 6-8 weeks. The first week is discovery and design; the following sprints build, test and launch the core features. We agree on a launch date before we start.",
    },
    {
      id: "payment",
      question: "How does payment work?",
      answer:
        "We ask for a 50% deposit when the engagement starts and the balance at completion. Longer engagements such as the Scale Package can be split into monthly milestones.",
    },
    {
      id: "ownership",
      question: "Who owns the code and intellectual property?",
      answer:
        "You do. All code, designs and documentation are transferred to your company, and we work in repositories you own from the first day.",
    },
    {
      id: "process",
      question: "How do you manage the work?",
      answer:
        "We work in agile 2-week sprints. Each sprint starts with a planning session and ends with a live demo, and you have access to the backlog and the team's chat throughout.",
    },
    {
      id: "after-launch",
      question: "What happens after the package ends?",
      answer:
        "You can take the product in-house with a full hand-over, continue with the Scale Package, or keep us on a smaller support retainer. We also help you hire your own team.",
    },
  ] satisfies FaqEntry[],
} as const;

export const packagesCta = {
  title: "Not sure which package fits?",
  lead: "Book a free 30-minute call. We will listen to where you are and recommend the shortest path to your next milestone.",
  primary: { label: "Schedule a Call", href: "/contact" },
  secondary: { label: "Explore Our Process", href: "/studio" },
} as const satisfies CallToAction;
