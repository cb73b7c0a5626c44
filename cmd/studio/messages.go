package main

import (
	"context"
	"flag"
	"io"
	"time"

	"studio/internal/contact"
	"studio/internal/query"
	"studio/internal/store"
)

var messagesListCommand = command{
	name:    "messages list",
	summary: "print the contact messages received",
	description: "Prints the contact messages in the store, oldest first, with their id, received time,\n" +
		"spam flag and every field. Spam is a submission that filled the form's hidden honeypot field.",
	setup: func(fs *flag.FlagSet, env func(string) string) action {
		cfg := storeFlags(fs, env)
		var since, format string
		fs.StringVar(&since, "since", "", "only messages received within this duration, like 24h, 90m or 7d (default: all)")
		formatFlag(fs, &format)
		return func(ctx context.Context, fs *flag.FlagSet, stdout, stderr io.Writer) error {
			if err := noArgs(fs, stderr); err != nil {
				return err
			}
			d, err := parseSince(since)
			if err != nil {
				return err
			}
			if err := checkFormat(format, stderr); err != nil {
				return err
			}
			var from time.Time
			if d > 0 {
				from = time.Now().Add(-d)
			}
			return withStore(ctx, *cfg, func(db *store.DB) error {
				msgs, err := db.ListContactMessages(ctx, from)
				if err != nil {
					return err
				}
				return exportTable(query.ContactMessages, nonNil(msgs), func(m contact.Message) map[string]any {
					return map[string]any{"id": m.ID, "received_at": m.ReceivedAt, "spam": m.Spam, "name": m.Name,
						"email": m.Email, "company": optionalValue(m.Company), "phone": optionalValue(m.Phone), "message": m.Message}
				}).write(stdout, format)
			})
		}
	},
}
