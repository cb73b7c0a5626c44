package main

import (
	"context"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOpenBackend: --storage-url picks the backend by its scheme; an S3
// bucket must exist (the S3 server of scripts/with-s3).
func TestOpenBackend(t *testing.T) {
	data := t.TempDir()
	ctx := context.Background()
	if _, err := openBackend(ctx, "", data); err != nil {
		t.Fatalf("default backend: %v", err)
	}
	if fi, err := os.Stat(filepath.Join(data, "storage")); err != nil || !fi.IsDir() {
		t.Errorf("the default backend made no directory storage in --data: %v", err)
	}
	s3URL := os.Getenv("STUDIO_TEST_S3_URL")
	if s3URL == "" {
		t.Fatal("STUDIO_TEST_S3_URL is not set: run the tests with scripts/with-s3 (make test-go does)")
	}
	if _, err := openBackend(ctx, s3URL, data); err != nil {
		t.Errorf("S3 backend: %v", err)
	}
	u, _ := url.Parse(s3URL)
	u.Host = "no-such-bucket"
	for _, tt := range []struct{ url, want string }{
		{u.String(), "no-such-bucket"},
		{"ftp://example.com/files", "want empty"},
		{"/var/lib/files", "want empty"},
	} {
		if _, err := openBackend(ctx, tt.url, data); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("openBackend(%q) = %v, want an error saying %q", tt.url, err, tt.want)
		}
	}
}
