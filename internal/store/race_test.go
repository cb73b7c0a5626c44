package store_test

import (
	"context"
	"sync"
	"testing"

	"studio/internal/auth"
	"studio/internal/store"
	"studio/internal/store/storetest"
)

const adaID = "00000000-0000-4000-8000-000000000001"

// inFlight is how many requests the race tests have in flight at once.
const inFlight = 32

// together runs do in n goroutines released at the same moment, and waits
// for them.
func together(n int, do func()) {
	start := make(chan struct{})
	var wg sync.WaitGroup
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			do()
		}()
	}
	close(start)
	wg.Wait()
}

// TestCodeTriesRace: with many wrong tries of one code in flight at once
// (on PostgreSQL, each in its own transaction), at most maxTries of them
// are compared with the code: each reads the tries the one before wrote.
func TestCodeTriesRace(t *testing.T) {
	const maxTries = auth.MaxCodeTries
	ctx := context.Background()
	tests := []struct {
		name    string
		purpose string
		pkce    bool
		try     func(db *store.DB)
	}{
		{"sign-in code", auth.PurposeSignIn, false, func(db *store.DB) {
			_ = db.ConsumeCode(ctx, adaID, auth.PurposeSignIn, "wrong", t0, maxTries, auth.AuditEntry{})
		}},
		{"PKCE verifier", auth.PurposeSignIn, true, func(db *store.DB) {
			_, _ = db.ConsumePKCE(ctx, "link", t0, maxTries, func(string, string) bool { return false })
		}},
		{"e-mail change code", auth.PurposeEmailChange, false, func(db *store.DB) {
			_, _ = db.ConsumeEmailChange(ctx, "new@studio.test", t0, maxTries, func(string, string) bool { return false }, auth.AuditEntry{})
		}},
	}
	for _, engine := range storetest.Engines() {
		for _, tt := range tests {
			t.Run(engine.Name+"/"+tt.name, func(t *testing.T) {
				cfg := engine.NewConfig(t)
				db := storetest.MustOpen(t, cfg)
				mustAddUser(t, db, staff(adaID, "ada@studio.test"))
				c := code(adaID, "hash", "link", t0)
				c.Purpose, c.NewEmail = tt.purpose, "new@studio.test"
				if tt.pkce {
					c.CodeChallenge, c.CodeChallengeMethod = "challenge", "s256"
				}
				if err := db.CreateCode(ctx, c, auth.AuditEntry{}); err != nil {
					t.Fatal(err)
				}
				together(inFlight, func() { tt.try(db) })
				var tries int
				if err := openRaw(t, cfg).QueryRow(`SELECT tries FROM auth_one_time_codes`).Scan(&tries); err != nil {
					t.Fatal(err)
				}
				if tries > maxTries {
					t.Errorf("%d tries of one code were compared, want at most %d", tries, maxTries)
				}
			})
		}
	}
}
