package store_test

import (
	"context"
	"testing"
	"time"

	"studio/internal/fault"
	"studio/internal/store"
	"studio/internal/store/storetest"
)

// TestErrorKinds provokes real errors of each engine's driver and checks
// the kind the store marks them with (decision 0014).
func TestErrorKinds(t *testing.T) {
	const (
		parent = `CREATE TEMPORARY TABLE kinds_parent (id INTEGER PRIMARY KEY)`
		child  = `CREATE TEMPORARY TABLE kinds_child (parent INTEGER REFERENCES kinds_parent (id), n INTEGER NOT NULL CHECK (n > 0))`
	)
	tests := []struct {
		name       string
		statements []string
		want       fault.Kind
	}{
		{"unique violation", []string{parent, `INSERT INTO kinds_parent VALUES (1)`, `INSERT INTO kinds_parent VALUES (1)`}, fault.Conflict},
		{"foreign key violation", []string{parent, child, `INSERT INTO kinds_child VALUES (7, 1)`}, fault.Conflict},
		{"check violation", []string{parent, child, `INSERT INTO kinds_child VALUES (NULL, 0)`}, fault.Invalid},
		{"not null violation", []string{parent, child, `INSERT INTO kinds_child VALUES (NULL, NULL)`}, fault.Invalid},
		{"an SQL error is a bug", []string{`SELECT nothing FROM nowhere`}, fault.Internal},
	}
	for _, engine := range storetest.Engines() {
		t.Run(engine.Name, func(t *testing.T) {
			db := engine.New(t)
			for _, tt := range tests {
				t.Run(tt.name, func(t *testing.T) {
					err := db.WriteSQL(context.Background(), tt.statements...)
					if err == nil || fault.KindOf(err) != tt.want {
						t.Errorf("= %v, of kind %q; want an error of kind %q", err, kindOf(err), tt.want)
					}
				})
			}
			t.Run("a deadline that passed", func(t *testing.T) {
				ctx, cancel := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
				defer cancel()
				if err := db.WriteSQL(ctx, `SELECT 1`); err == nil || fault.KindOf(err) != fault.Unavailable {
					t.Errorf("= %v, of kind %q; want %q", err, kindOf(err), fault.Unavailable)
				}
			})
		})
	}
	t.Run("unreachable postgres", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		db, err := store.Open(ctx, store.Config{DatabaseURL: "postgres://studio@127.0.0.1:1/none?connect_timeout=2"})
		if err != nil {
			t.Fatalf("Open = %v", err)
		}
		defer db.Close()
		for name, err := range map[string]error{
			"ping":  db.Ping(ctx),
			"write": db.WriteSQL(ctx, `SELECT 1`),
		} {
			if err == nil || fault.KindOf(err) != fault.Unavailable {
				t.Errorf("%s = %v, of kind %q; want %q", name, err, kindOf(err), fault.Unavailable)
			}
		}
	})
}

func kindOf(err error) fault.Kind {
	if err == nil {
		return ""
	}
	return fault.KindOf(err)
}
