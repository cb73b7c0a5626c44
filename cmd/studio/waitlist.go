package main

import (
	"context"

	"studio/internal/store"
)

var waitlistListCommand = listCommand(
	"waitlist list",
	"print the waitlists of the coming-soon products",
	"Prints every waitlist entry in the store: product, address and when it joined, by product.",
	func(ctx context.Context, db *store.DB) (table, error) {
		entries, err := db.ListWaitlist(ctx)
		t := table{header: []string{"product_id", "email", "joined_at"}, records: nonNil(entries)}
		for _, e := range entries {
			t.rows = append(t.rows, []string{e.ProductID, e.Email, timeCell(e.JoinedAt)})
		}
		return t, err
	},
)
