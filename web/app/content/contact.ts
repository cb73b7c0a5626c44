/** All copy of the contact page (docs/requirements.md#contact-page and #contact-form). */

import { externalLinks, studio } from "./site";
export { contactPage } from "./page-meta";


export const contactForm = {
  title: "Send us a message",
  requiredNote: "Fields marked * are required.",
  fields: {
    name: { label: "Name", placeholder: "Your name", autoComplete: "name" },
    email: { label: "Email", placeholder: "you@company.com", autoComplete: "email" },
    company: { label: "Company", placeholder: "Your company", autoComplete: "organization" },
    phone: { label: "Phone", placeholder: "+1 (555) 000-0000", autoComplete: "tel" },
    message: { label: "Message", placeholder: "Tell us about your project", rows: 5 },
  },
  optional: "(optional)",
  /** The hidden honeypot field's label, read only by bots. */
  honeypotLabel: "Website",
  submit: "Send Message",
  submitting: "Sending...",
  success: {
    toastTitle: "Message sent!",
    toastDescription: "We'll get back to you as soon as possible.",
    title: "Message Received!",
    text: "Thank you for reaching out. We'll get back to you as soon as possible.",
    again: "Send Another Message",
    againHref: "/contact",
    /** Where a message posted without JavaScript lands (the server's 303). */
    path: "/contact/sent",
  },
  error: {
    toastTitle: "Error",
    fallback: "Failed to send message. Please try again.",
  },
} as const;

export const contactDetails = {
  title: "Get in Touch",
  blurb:
    "Whether you're a founder with an idea, a company looking for a product partner, or just curious about how we work, we'd love to hear from you.",
  email: { label: "Email", value: studio.email, href: `mailto:${studio.email}` },
  phone: { label: "Phone", value: studio.phone, href: studio.phoneHref },
  location: { label: "Location", value: studio.location },
  schedule: {
    title: "Schedule a Call",
    text: "Prefer to talk? Book a free 30-minute consultation with our team to discuss your SaaS project.",
    link: { label: "Book a Free Consultation", href: externalLinks.scheduling },
  },
} as const;
