package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOpenBackend: --storage-url picks the backend by its scheme.
func TestOpenBackend(t *testing.T) {
	data := t.TempDir()
	if _, err := openBackend("", data); err != nil {
		t.Fatalf("default backend: %v", err)
	}
	if fi, err := os.Stat(filepath.Join(data, "storage")); err != nil || !fi.IsDir() {
		t.Errorf("the default backend made no directory storage in --data: %v", err)
	}
	for _, tt := range []struct{ url, want string }{
		{"s3://files?endpoint=http://127.0.0.1:9000&region=us-east-1", "S3 backend"},
		{"ftp://example.com/files", "want empty"},
		{"/var/lib/files", "want empty"},
	} {
		if _, err := openBackend(tt.url, data); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("openBackend(%q) = %v, want an error saying %q", tt.url, err, tt.want)
		}
	}
}
