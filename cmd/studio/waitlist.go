package main

import (
	"context"

	"studio/internal/query"
	"studio/internal/signup"
	"studio/internal/store"
)

var waitlistListCommand = listCommand(
	"waitlist list",
	"print the waitlists of the coming-soon products",
	"Prints every waitlist entry in the store: product, address and when it joined, by product.",
	func(ctx context.Context, db *store.DB) (table, error) {
		entries, err := db.ListWaitlist(ctx)
		return exportTable(query.Waitlist, nonNil(entries), func(e signup.WaitlistEntry) map[string]any {
			return map[string]any{"product_id": e.ProductID, "email": e.Email, "joined_at": e.JoinedAt}
		}), err
	},
)
