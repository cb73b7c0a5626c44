package main

import (
	"context"

	"studio/internal/query"
	"studio/internal/signup"
	"studio/internal/store"
)

var subscribersListCommand = listCommand(
	"subscribers list",
	"print the newsletter subscribers",
	"Prints every newsletter subscriber in the store: address and when it subscribed, oldest first.",
	func(ctx context.Context, db *store.DB) (table, error) {
		subs, err := db.ListSubscribers(ctx)
		return exportTable(query.Subscribers, nonNil(subs), func(s signup.Subscriber) map[string]any {
			return map[string]any{"email": s.Email, "subscribed_at": s.SubscribedAt}
		}), err
	},
)
