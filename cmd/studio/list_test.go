package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"studio/internal/contact"
	"studio/internal/signup"
	"studio/internal/store"
	"studio/internal/store/storetest"
)

func strp(s string) *string { return &s }

// seed fills a new SQLite store in a temporary --data directory.
func seed(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	db := storetest.MustOpen(t, store.Config{DataDir: dir})
	ctx := context.Background()
	at := time.Date(2025, 5, 16, 9, 30, 0, 0, time.UTC)
	msgs := []contact.Message{
		{ID: "m1", ReceivedAt: at, Name: "Ada Lovelace", Email: "ada@example.com", Message: "Hello"},
		{ID: "m2", ReceivedAt: at.Add(time.Hour), Name: "Grace, Hopper", Email: "grace@example.com", Company: strp("Navy"), Phone: strp("+1 555"),
			Message: "Two lines\nand a \"quote\"", Spam: true},
	}
	for _, m := range msgs {
		if _, err := db.CreateContactMessage(ctx, m, nil); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.JoinWaitlist(ctx, signup.WaitlistEntry{ProductID: "saas-2", Email: "ada@example.com", JoinedAt: at}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Subscribe(ctx, signup.Subscriber{Email: "reader@example.com", SubscribedAt: at}); err != nil {
		t.Fatal(err)
	}
	db.Close()
	return dir
}

func TestListCommands(t *testing.T) {
	dir := seed(t)
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"messages as a table", []string{"messages", "list", "--data", dir}, `
ID  RECEIVED_AT           SPAM   NAME           EMAIL              COMPANY  PHONE   MESSAGE
m1  2025-05-16T09:30:00Z  false  Ada Lovelace   ada@example.com                     Hello
m2  2025-05-16T10:30:00Z  true   Grace, Hopper  grace@example.com  Navy     +1 555  Two lines\nand a "quote"
`},
		{"messages as CSV", []string{"messages", "list", "--data", dir, "--format", "csv"}, `
id,received_at,spam,name,email,company,phone,message
m1,2025-05-16T09:30:00Z,false,Ada Lovelace,ada@example.com,,,Hello
m2,2025-05-16T10:30:00Z,true,"Grace, Hopper",grace@example.com,Navy,'+1 555,"Two lines
and a ""quote"""
`},
		{"messages as JSON", []string{"messages", "list", "--data", dir, "--format", "json"}, `
[
  {
    "id": "m1",
    "received_at": "2025-05-16T09:30:00Z",
    "name": "Ada Lovelace",
    "email": "ada@example.com",
    "company": null,
    "phone": null,
    "message": "Hello",
    "spam": false
  },
  {
    "id": "m2",
    "received_at": "2025-05-16T10:30:00Z",
    "name": "Grace, Hopper",
    "email": "grace@example.com",
    "company": "Navy",
    "phone": "+1 555",
    "message": "Two lines\nand a \"quote\"",
    "spam": true
  }
]
`},
		{"messages since a day: none of 2025's", []string{"messages", "list", "--data", dir, "--since", "24h", "--format", "json"}, "\n[]\n"},
		{"messages since ten thousand days: all", []string{"messages", "list", "--data", dir, "--since", "10000d", "--format", "csv"}, `
id,received_at,spam,name,email,company,phone,message
m1,2025-05-16T09:30:00Z,false,Ada Lovelace,ada@example.com,,,Hello
m2,2025-05-16T10:30:00Z,true,"Grace, Hopper",grace@example.com,Navy,'+1 555,"Two lines
and a ""quote"""
`},
		{"waitlist as a table", []string{"waitlist", "list", "--data", dir}, `
PRODUCT_ID  EMAIL            JOINED_AT
saas-2      ada@example.com  2025-05-16T09:30:00Z
`},
		{"waitlist as JSON", []string{"waitlist", "list", "--data", dir, "--format", "json"}, `
[
  {
    "product_id": "saas-2",
    "email": "ada@example.com",
    "joined_at": "2025-05-16T09:30:00Z"
  }
]
`},
		{"subscribers as CSV", []string{"subscribers", "list", "--data", dir, "--format", "csv"}, `
email,subscribed_at
reader@example.com,2025-05-16T09:30:00Z
`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			if code := run(context.Background(), tt.args, func(string) string { return "" }, &out, &errOut); code != 0 {
				t.Fatalf("exit %d: %s", code, errOut.String())
			}
			if diff := cmp.Diff(strings.TrimPrefix(tt.want, "\n"), out.String()); diff != "" {
				t.Errorf("output (-want +got):\n%s", diff)
			}
		})
	}
}

// TestListCSVSafeInSpreadsheet: in --format csv a cell that a spreadsheet
// would read as a formula is prefixed with a single quote; JSON and the
// table keep the values.
func TestListCSVSafeInSpreadsheet(t *testing.T) {
	dir := t.TempDir()
	db := storetest.MustOpen(t, store.Config{DataDir: dir})
	m := contact.Message{ID: "m1", ReceivedAt: time.Date(2025, 5, 16, 9, 30, 0, 0, time.UTC), Name: "=1+1", Email: "@evil.example",
		Company: strp("-2"), Phone: strp("+1 555"), Message: "\t=cmd"}
	if _, err := db.CreateContactMessage(context.Background(), m, nil); err != nil {
		t.Fatal(err)
	}
	db.Close()
	for _, tt := range []struct{ format, want string }{
		{"csv", "id,received_at,spam,name,email,company,phone,message\nm1,2025-05-16T09:30:00Z,false,'=1+1,'@evil.example,'-2,'+1 555,'\t=cmd\n"},
		{"json", `"name": "=1+1",`},
		{"table", "=1+1"},
	} {
		t.Run(tt.format, func(t *testing.T) {
			var out, errOut bytes.Buffer
			if code := run(context.Background(), []string{"messages", "list", "--data", dir, "--format", tt.format}, func(string) string { return "" }, &out, &errOut); code != 0 {
				t.Fatalf("exit %d: %s", code, errOut.String())
			}
			got := out.String()
			if exact := tt.format == "csv"; exact && got != tt.want || !exact && (!strings.Contains(got, tt.want) || strings.Contains(got, "'")) {
				t.Errorf("--format %s:\n%s\nwant %q", tt.format, got, tt.want)
			}
		})
	}
}

func TestListCommandErrors(t *testing.T) {
	dir := seed(t)
	tests := []struct {
		name     string
		args     []string
		wantCode int
		want     string
	}{
		{"unknown format", []string{"messages", "list", "--data", dir, "--format", "xml"}, 2, `unknown --format "xml"`},
		{"bad since", []string{"messages", "list", "--data", dir, "--since", "yesterday"}, 1, `--since "yesterday"`},
		{"no store in --data", []string{"subscribers", "list", "--data", t.TempDir()}, 1, "no store in"},
		{"stray argument", []string{"waitlist", "list", "--data", dir, "extra"}, 2, `unexpected argument "extra"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			if code := run(context.Background(), tt.args, func(string) string { return "" }, &out, &out); code != tt.wantCode {
				t.Errorf("exit code = %d, want %d", code, tt.wantCode)
			}
			if !strings.Contains(out.String(), tt.want) {
				t.Errorf("output lacks %q:\n%s", tt.want, out.String())
			}
		})
	}
}

// TestListFromPostgres: DATABASE_URL points the commands at PostgreSQL.
func TestListFromPostgres(t *testing.T) {
	url := storetest.PostgresURL(t)
	db := storetest.MustOpen(t, store.Config{DatabaseURL: url})
	if _, err := db.Subscribe(context.Background(), signup.Subscriber{Email: "pg@example.com", SubscribedAt: time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)}); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	env := func(k string) string {
		if k == "DATABASE_URL" {
			return url
		}
		return ""
	}
	if code := run(context.Background(), []string{"subscribers", "list", "--format", "csv"}, env, &out, &out); code != 0 {
		t.Fatalf("exit %d: %s", code, out.String())
	}
	if want := "email,subscribed_at\npg@example.com,2025-01-02T03:04:05Z\n"; out.String() != want {
		t.Errorf("output = %q, want %q", out.String(), want)
	}
}
