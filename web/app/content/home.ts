/** Copy of the Home page (docs/requirements.md#home, and the home reading of #service-packages). */
import { externalLinks } from "./site";
import type { ExternalLink, FeatureCard, Link, Logo, ServicePackage, Testimonial } from "./types";
export { homeMeta } from "./page-meta";


export const hero = {
  eyebrow: "Venture studio for cloud software",
  headline: "Build, Launch, Scale & Exit Your SaaS Success Story",
  lead:
    "We partner with founders from the first idea to the final handshake: validating the market, shipping the product, growing revenue and preparing a clean exit.",
  primary: { label: "Explore Services", href: "/studio/service-packages" } satisfies Link,
  secondary: { label: "Our Products", href: "/products" } satisfies Link,
  image: {
    src: "/images/home/hero-dashboard.svg",
    alt: "A SaaS analytics dashboard with growing revenue charts",
    width: 640,
    height: 480,
  },
  stats: [
    { value: "12+", label: "Ventures built" },
    { value: "4", label: "Successful exits" },
    { value: "$25M+", label: "Funding raised" },
  ],
} as const;

export const logoStrip = {
  title: "Trusted by Innovative Founders",
  logos: [
    { src: "/images/logos/nimbus.svg", alt: "Nimbus" },
    { src: "/images/logos/quanta.svg", alt: "Quanta" },
    { src: "/images/logos/helix.svg", alt: "Helix" },
    { src: "/images/logos/vertex.svg", alt: "Vertex" },
    { src: "/images/logos/orbit.svg", alt: "Orbit" },
    { src: "/images/logos/lumen.svg", alt: "Lumen" },
  ] satisfies Logo[],
} as const;

export const approach = {
  title: "Our Approach",
  lead: "One team and one playbook for every stage of a SaaS company's life.",
  cards: [
    {
      icon: "lightbulb",
      title: "Ideate",
      description:
        "We test the problem before we write code: customer interviews, market sizing and a sharp value proposition.",
    },
    {
      icon: "code",
      title: "Build",
      description:
        "Senior engineers and designers ship a production-grade MVP in weeks, on an architecture that will not hold you back.",
    },
    {
      icon: "trending-up",
      title: "Scale",
      description:
        "Growth loops, pricing, onboarding and infrastructure that carry you from the first hundred customers to the first ten thousand.",
    },
    {
      icon: "trophy",
      title: "Exit",
      description:
        "Clean financials, documented systems and warm buyer introductions, so your company is ready when the right offer arrives.",
    },
  ] satisfies FeatureCard[],
} as const;

export const flagship = {
  eyebrow: "Flagship product",
  title: "AURION: your private, autonomous AI assistant",
  description:
    "AURION is a private, local-first AI assistant platform for workflow automation. It plans, acts and checks its own work on a planning/action/safety framework, and connects to your tools through the Model Context Protocol, without your data leaving your machines.",
  points: [
    "Runs on your own hardware: your data never leaves it",
    "Plans multi-step work, acts on it and verifies each step",
    "Connects to your tools through the Model Context Protocol",
  ],
  explore: { label: "Explore AURION", href: "/products/aurion" } satisfies Link,
  demo: { label: "Try Demo", href: externalLinks.aurionDemo, external: true } satisfies ExternalLink,
  image: {
    src: "/images/products/aurion.svg",
    alt: "AURION assistant dashboard showing an automated workflow plan",
    width: 640,
    height: 480,
  },
} as const;

export const homePackages = {
  title: "Service Packages",
  lead: "Clear scope, fixed prices and senior people on every engagement.",
  packages: [
    {
      id: "mvp-sprint",
      name: "MVP Sprint",
      price: "Starting at $25,000",
      priceNote: "6-week build",
      description: "From validated idea to a launched, production-ready MVP in six weeks.",
      features: [
        { title: "Requirements workshop", included: true },
        { title: "UI/UX design", included: true },
        { title: "Core feature development", included: true },
        { title: "Basic analytics", included: true },
        { title: "Technical documentation", included: true },
        { title: "Launch strategy", included: false },
        { title: "Post-launch support", included: false },
      ],
      popular: false,
      buttonText: "Start Your MVP",
      buttonLink: "/contact",
    },
    {
      id: "growth-retainer",
      name: "Growth Retainer",
      price: "$10,000/month",
      priceNote: "Ongoing partnership",
      description: "A dedicated product team that ships, measures and grows your SaaS month after month.",
      features: [
        { title: "Dedicated product team", included: true },
        { title: "Continuous feature development", included: true },
        { title: "Growth experiments and analytics", included: true },
        { title: "Infrastructure and performance", included: true },
        { title: "Launch strategy", included: true },
        { title: "24/7 support", included: true },
      ],
      popular: true,
      buttonText: "Grow With Us",
      buttonLink: "/contact",
    },
    {
      id: "exit-ready",
      name: "Exit-Ready",
      price: "Custom pricing",
      priceNote: "Tailored to your company",
      description: "Everything a buyer will ask for, prepared before they ask: the shortest path to a strong exit.",
      features: [
        { title: "Valuation analysis", included: true },
        { title: "Financial and metrics clean-up", included: true },
        { title: "Technical due-diligence preparation", included: true },
        { title: "Code and documentation audit", included: true },
        { title: "Buyer introductions", included: true },
        { title: "Deal and transition support", included: true },
      ],
      popular: false,
      buttonText: "Plan Your Exit",
      buttonLink: "/contact",
    },
  ] satisfies ServicePackage[],
  popularLabel: "Most Popular",
  includedLabel: "Included",
  notIncludedLabel: "Not included",
} as const;

export const homeTestimonials = {
  title: "What Founders Say",
  lead: "Founders who built, scaled and sold with us.",
  items: [
    {
      quote:
        "Meridian took us from a napkin sketch to paying customers in seven weeks. Their engineers think like founders.",
      author: "Sarah Chen",
      role: "CEO",
      company: "Quanta Analytics",
      rating: 5,
    },
    {
      quote:
        "The growth retainer paid for itself in the first quarter: onboarding conversion went up 38% and churn dropped by half.",
      author: "Marcus Johnson",
      role: "Founder",
      company: "Helix CRM",
      rating: 5,
    },
    {
      quote:
        "When the acquisition offer came, due diligence took three weeks instead of three months. Every document was already there.",
      author: "Elena Rodriguez",
      role: "Co-founder & CTO",
      company: "Vertex Data (acquired 2024)",
      rating: 5,
    },
  ] satisfies Testimonial[],
} as const;

export const homeCta = {
  title: "Ready to build your SaaS success story?",
  lead: "Tell us about your idea or your company. A free 30-minute discovery call is the first step.",
  primary: { label: "Book a Discovery Call", href: "/contact" } satisfies Link,
  secondary: { label: "Explore Our Process", href: "/studio" } satisfies Link,
} as const;
