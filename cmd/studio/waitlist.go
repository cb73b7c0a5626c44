package main

import (
	"context"
	"flag"
	"io"

	"studio/internal/store"
)

var waitlistListCommand = command{
	name:        "waitlist list",
	summary:     "print the waitlists of the coming-soon products",
	description: "Prints every waitlist entry in the store: product, address and when it joined, by product.",
	setup: func(fs *flag.FlagSet, env func(string) string) action {
		cfg := storeFlags(fs, env)
		var format string
		formatFlag(fs, &format)
		return func(ctx context.Context, fs *flag.FlagSet, stdout, stderr io.Writer) error {
			if err := noArgs(fs, stderr); err != nil {
				return err
			}
			if err := checkFormat(format, stderr); err != nil {
				return err
			}
			return withStore(ctx, *cfg, func(db *store.DB) error {
				entries, err := db.ListWaitlist(ctx)
				if err != nil {
					return err
				}
				t := table{header: []string{"product_id", "email", "joined_at"}, records: entries}
				if entries == nil {
					t.records = []struct{}{}
				}
				for _, e := range entries {
					t.rows = append(t.rows, []string{e.ProductID, e.Email, timeCell(e.JoinedAt)})
				}
				return t.write(stdout, format)
			})
		}
	},
}
