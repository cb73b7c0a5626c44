// Package storetest opens throwaway stores of both engines for tests: SQLite
// in a temporary directory, and PostgreSQL as a fresh database on the server
// named by STUDIO_TEST_DATABASE_URL (make test starts one with
// scripts/with-postgres). Without that variable the PostgreSQL tests fail:
// they are never skipped.
package storetest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"net/url"
	"os"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib"

	"studio/internal/store"
)

// EnvDatabaseURL names the variable with the address of the test PostgreSQL.
const EnvDatabaseURL = "STUDIO_TEST_DATABASE_URL"

// Engine makes the configuration of a new, empty store of one engine.
type Engine struct {
	Name      string
	NewConfig func(tb testing.TB) store.Config
}

// Engines are both engines, SQLite first.
func Engines() []Engine {
	return []Engine{
		{"sqlite", func(tb testing.TB) store.Config { return store.Config{DataDir: tb.TempDir()} }},
		{"postgres", func(tb testing.TB) store.Config { return store.Config{DatabaseURL: PostgresURL(tb)} }},
	}
}

// New opens a new, empty store of the engine.
func (e Engine) New(tb testing.TB) *store.DB {
	tb.Helper()
	return MustOpen(tb, e.NewConfig(tb))
}

// MustOpen opens the store of cfg, waits until it is ready, and closes it at
// the end of the test.
func MustOpen(tb testing.TB, cfg store.Config) *store.DB {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	db, err := store.Open(ctx, cfg)
	if err != nil {
		tb.Fatalf("open store: %v", err)
	}
	if err := db.Ping(ctx); err != nil {
		tb.Fatalf("store not ready: %v", err)
	}
	tb.Cleanup(func() { db.Close() })
	return db
}

// PostgresURL creates a new database on the test server, drops it at the
// end of the test, and returns its address.
func PostgresURL(tb testing.TB) string {
	tb.Helper()
	admin := os.Getenv(EnvDatabaseURL)
	if admin == "" {
		tb.Fatalf("%s is not set: run the tests with scripts/with-postgres (make test-go does)", EnvDatabaseURL)
	}
	u, err := url.Parse(admin)
	if err != nil {
		tb.Fatalf("%s: %v", EnvDatabaseURL, err)
	}
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	name := "studio_test_" + hex.EncodeToString(b)
	db, err := sql.Open("pgx", admin)
	if err != nil {
		tb.Fatal(err)
	}
	defer db.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := db.ExecContext(ctx, "CREATE DATABASE "+name); err != nil {
		tb.Fatalf("create test database: %v", err)
	}
	tb.Cleanup(func() {
		db, err := sql.Open("pgx", admin)
		if err != nil {
			return
		}
		defer db.Close()
		_, _ = db.ExecContext(context.Background(), "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)")
	})
	u.Path = "/" + name
	return u.String()
}
