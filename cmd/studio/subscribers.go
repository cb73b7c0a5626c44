package main

import (
	"context"
	"flag"
	"io"

	"studio/internal/store"
)

var subscribersListCommand = command{
	name:        "subscribers list",
	summary:     "print the newsletter subscribers",
	description: "Prints every newsletter subscriber in the store: address and when it subscribed, oldest first.",
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
				subs, err := db.ListSubscribers(ctx)
				if err != nil {
					return err
				}
				t := table{header: []string{"email", "subscribed_at"}, records: subs}
				if subs == nil {
					t.records = []struct{}{}
				}
				for _, s := range subs {
					t.rows = append(t.rows, []string{s.Email, timeCell(s.SubscribedAt)})
				}
				return t.write(stdout, format)
			})
		}
	},
}
