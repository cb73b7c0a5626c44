package main

import (
	"context"

	"studio/internal/store"
)

var subscribersListCommand = listCommand(
	"subscribers list",
	"print the newsletter subscribers",
	"Prints every newsletter subscriber in the store: address and when it subscribed, oldest first.",
	func(ctx context.Context, db *store.DB) (table, error) {
		subs, err := db.ListSubscribers(ctx)
		t := table{header: []string{"email", "subscribed_at"}, records: nonNil(subs)}
		for _, s := range subs {
			t.rows = append(t.rows, []string{s.Email, timeCell(s.SubscribedAt)})
		}
		return t, err
	},
)
