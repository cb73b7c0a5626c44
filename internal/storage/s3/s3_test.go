package s3_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"testing"

	"studio/internal/fault"
	"studio/internal/files"
	"studio/internal/storage/backendtest"
	"studio/internal/storage/s3"
)

// envURL names the variable with the storage URL of the test server's
// bucket (scripts/with-s3 starts a server and sets it, with the server's
// credentials in AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY). Without it
// the tests that need the server fail: they are never skipped.
const envURL = "STUDIO_TEST_S3_URL"

func testURL(t *testing.T) string {
	t.Helper()
	u := os.Getenv(envURL)
	if u == "" {
		t.Fatalf("%s is not set: run the tests with scripts/with-s3 (make test-go does)", envURL)
	}
	return u
}

func open(t *testing.T, rawURL string) *s3.Backend {
	t.Helper()
	b, err := s3.Open(t.Context(), rawURL)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	return b
}

func TestConformance(t *testing.T) {
	rawURL := testURL(t)
	backendtest.Run(t, func(t *testing.T) files.Backend { return open(t, rawURL) })
}

// TestPrefix: a URL with a path keeps every blob under it, beside whatever
// else the bucket holds.
func TestPrefix(t *testing.T) {
	rawURL := testURL(t)
	u, err := url.Parse(rawURL)
	if err != nil {
		t.Fatal(err)
	}
	u.Path = "/studio/blobs"
	prefixed, whole := open(t, u.String()), open(t, rawURL)
	ctx := t.Context()
	if _, err := prefixed.Put(ctx, "prefix-test", strings.NewReader("under the prefix"), "text/plain"); err != nil {
		t.Fatalf("Put: %v", err)
	}
	t.Cleanup(func() { prefixed.Delete(context.Background(), "prefix-test") })
	r, err := whole.Open(ctx, "studio/blobs/prefix-test")
	if err != nil {
		t.Fatalf("the blob is not at studio/blobs/prefix-test in the bucket: %v", err)
	}
	defer r.Close()
	if got, _ := io.ReadAll(r); string(got) != "under the prefix" {
		t.Errorf("studio/blobs/prefix-test = %q", got)
	}
	if _, err := whole.Open(ctx, "prefix-test"); !errors.Is(err, files.ErrBlobNotFound) {
		t.Errorf("the blob is also outside the prefix: Open = %v", err)
	}
}

// TestOpenErrors: a storage URL that cannot work is refused by Open with a
// message that says why and never tells the secret key; an unreachable
// service is of kind Unavailable (the service answers 503, and a server
// starting waits for it), a missing bucket is not.
func TestOpenErrors(t *testing.T) {
	good, err := url.Parse(testURL(t))
	if err != nil {
		t.Fatal(err)
	}
	access, secret := os.Getenv("AWS_ACCESS_KEY_ID"), os.Getenv("AWS_SECRET_ACCESS_KEY")
	with := func(change func(u *url.URL)) string {
		u := *good
		change(&u)
		return u.String()
	}
	setQuery := func(name, value string) func(u *url.URL) {
		return func(u *url.URL) {
			q := u.Query()
			q.Set(name, value)
			u.RawQuery = q.Encode()
		}
	}
	tests := []struct {
		name        string
		url         string
		env         bool // AWS_* set to the server's credentials
		unavailable bool
		wantInError string
	}{
		{"a bucket that does not exist", with(func(u *url.URL) { u.Host = "no-such-bucket" }), true, false, `the bucket "no-such-bucket" does not exist`},
		{"a server that is down", with(setQuery("endpoint", closedPort(t))), true, true, "connection refused"},
		{"a wrong secret key", with(func(u *url.URL) { u.User = url.UserPassword(access, secret+"x") }), false, false, "checking the bucket"},
		{"no credentials", good.String(), false, false, "AWS_ACCESS_KEY_ID"},
		{"credentials without a secret", with(func(u *url.URL) { u.User = url.User(access) }), false, false, "ACCESS_KEY:SECRET_KEY"},
		{"another scheme", with(func(u *url.URL) { u.Scheme = "http" }), true, false, "s3://"},
		{"an unknown parameter", with(setQuery("insecure", "true")), true, false, `unknown parameter "insecure"`},
		{"tls neither true nor false", with(setQuery("tls", "no")), true, false, "tls is true or false"},
		{"no bucket", "s3:///?endpoint=127.0.0.1:1", true, false, "no bucket"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.env {
				t.Setenv("AWS_ACCESS_KEY_ID", access)
				t.Setenv("AWS_SECRET_ACCESS_KEY", secret)
			} else {
				t.Setenv("AWS_ACCESS_KEY_ID", "")
				t.Setenv("AWS_SECRET_ACCESS_KEY", "")
			}
			b, err := s3.Open(t.Context(), tt.url)
			if err == nil {
				t.Fatalf("Open(%s) = %v, want an error", tt.url, b)
			}
			if !strings.Contains(err.Error(), tt.wantInError) {
				t.Errorf("error %q does not say %q", err, tt.wantInError)
			}
			if strings.Contains(err.Error(), secret) {
				t.Errorf("error %q tells the secret key", err)
			}
			if got := fault.KindOf(err) == fault.Unavailable; got != tt.unavailable {
				t.Errorf("error %q is of kind %s; want Unavailable: %v", err, fault.KindOf(err), tt.unavailable)
			}
		})
	}
}

// closedPort is a loopback address where nothing listens.
func closedPort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return addr
}

// TestUnavailable: once open, a service that answers 5xx or cannot be
// reached makes every operation fail with kind Unavailable (answered 503
// with Retry-After), never ErrBlobNotFound.
func TestUnavailable(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodHead && strings.Trim(r.URL.Path, "/") == "bucket" {
			return // the bucket exists
		}
		w.Header().Set("Content-Type", "application/xml")
		w.WriteHeader(http.StatusServiceUnavailable)
		io.WriteString(w, `<Error><Code>ServiceUnavailable</Code><Message>down for maintenance</Message></Error>`)
	}))
	defer srv.Close()
	t.Setenv("AWS_ACCESS_KEY_ID", "access")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "secret")
	b := open(t, "s3://bucket?endpoint="+srv.Listener.Addr().String()+"&region=us-east-1&tls=false&path-style=true")

	operations := []struct {
		name string
		do   func(ctx context.Context) error
	}{
		{"put", func(ctx context.Context) error {
			_, err := b.Put(ctx, "k", bytes.NewReader([]byte("data")), "text/plain")
			return err
		}},
		{"open", func(ctx context.Context) error {
			r, err := b.Open(ctx, "k")
			if err == nil {
				r.Close()
			}
			return err
		}},
		{"copy", func(ctx context.Context) error { return b.Copy(ctx, "k", "k2") }},
		{"delete", func(ctx context.Context) error { return b.Delete(ctx, "k") }},
	}
	for _, state := range []string{"answering 503", "down"} {
		if state == "down" {
			srv.Close()
		}
		for _, op := range operations {
			t.Run(state+"/"+op.name, func(t *testing.T) {
				err := op.do(t.Context())
				if err == nil {
					t.Fatalf("%s succeeded on a service %s", op.name, state)
				}
				if fault.KindOf(err) != fault.Unavailable || errors.Is(err, files.ErrBlobNotFound) {
					t.Errorf("%s on a service %s: %v (kind %s), want Unavailable", op.name, state, err, fault.KindOf(err))
				}
			})
		}
	}
}
