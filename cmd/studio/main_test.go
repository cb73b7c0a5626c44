package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// binary is the studio binary built once for the tests that run it as a process.
var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "studio-test")
	if err != nil {
		panic(err)
	}
	binary = filepath.Join(dir, "studio")
	if out, err := exec.Command("go", "build", "-o", binary, ".").CombinedOutput(); err != nil {
		os.Stderr.Write(out)
		panic(err)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// startServer runs "studio serve" on a free port with a fresh store (see startStudio).
func startServer(t *testing.T) (string, *studioProc) {
	t.Helper()
	return startStudio(t, nil, "--addr", "127.0.0.1:0", "--data", t.TempDir())
}

func get(t *testing.T, url string) (*http.Response, string) {
	t.Helper()
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, string(body)
}

// The route table of docs/requirements.md#routes.
var specRoutes = []string{
	"/", "/studio", "/studio/service-packages", "/studio/venture-portfolio", "/studio/success-stories",
	"/products", "/products/aurion", "/products/saas-2", "/products/saas-3",
	"/resources", "/resources/blog", "/resources/podcasts", "/resources/templates",
	"/about", "/contact", "/legal/terms", "/legal/privacy", "/legal/cookies", "/legal/affiliate-disclosure",
}

func TestServesTheBuiltSite(t *testing.T) {
	base, _ := startServer(t)
	for _, route := range specRoutes {
		t.Run("route "+route, func(t *testing.T) {
			resp, body := get(t, base+route)
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("status = %d, want 200", resp.StatusCode)
			}
			if !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") || !strings.Contains(body, "<h1") {
				t.Errorf("not a prerendered page: %s", resp.Header.Get("Content-Type"))
			}
		})
	}
	tests := []struct {
		name, path string
		status     int
		contains   string
	}{
		{"home headline before any script", "/", 200, "Build, Launch, Scale &amp; Exit Your SaaS Success Story"},
		{"unknown path", "/no-such-page", 404, "Page Not Found"},
		{"unknown product", "/products/datasync", 404, "Product Not Found"},
		{"canonical redirect", "/studio/", 308, ""},
		{"health", "/healthz", 200, "ok"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := get(t, base+tt.path)
			if resp.StatusCode != tt.status {
				t.Fatalf("status = %d, want %d", resp.StatusCode, tt.status)
			}
			if !strings.Contains(body, tt.contains) {
				t.Errorf("body lacks %q", tt.contains)
			}
		})
	}
}

func TestSIGTERMExitsCleanly(t *testing.T) {
	base, proc := startServer(t)
	if resp, _ := get(t, base+"/healthz"); resp.StatusCode != 200 {
		t.Fatalf("healthz = %d", resp.StatusCode)
	}
	proc.stop(t)
}

func TestHelp(t *testing.T) {
	// Lines of the top-level usage, which names every command and prints every flag.
	notWholeUsage := []string{"serve the web site", "-addr", "STUDIO_ADDR", `unknown command "staff"`}
	tests := []struct {
		name     string
		args     []string
		wantCode int
		want     []string
		wantNot  []string
	}{
		{"top-level help", []string{"--help"}, 0, []string{"serve", "-addr", "STUDIO_ADDR", "-data", "STUDIO_DATA"}, nil},
		{"serve help", []string{"serve", "--help"}, 0, []string{"-addr", "STUDIO_ADDR", ":8080", "-data", "STUDIO_DATA", "./data", "SIGTERM"}, nil},
		{"no command", nil, 2, []string{"Commands:"}, nil},
		{"unknown command", []string{"fly"}, 2, []string{`unknown command "fly"`}, nil},
		{"bad flag", []string{"serve", "--nope"}, 2, []string{"flag provided but not defined"}, nil},
		// A group without one of its commands lists the group's commands, not every flag of every command.
		{"staff without a command", []string{"staff"}, 2, []string{"studio staff: a command is missing", "staff add", "let a person sign in as staff", "staff reset-mfa"}, notWholeUsage},
		{"keys without a command", []string{"keys"}, 2, []string{"keys print-anon", "keys rotate", "keys seal", "keys unseal", "keys drop-unreadable"}, notWholeUsage},
		{"messages without a command", []string{"messages"}, 2, []string{"messages list", "print the contact messages received"}, notWholeUsage},
		{"audit without a command", []string{"audit"}, 2, []string{"audit list"}, notWholeUsage},
		{"unknown staff command", []string{"staff", "frobnicate"}, 2, []string{`studio staff: unknown command "frobnicate"`, "staff add", "staff remove"}, notWholeUsage},
		{"staff help", []string{"staff", "--help"}, 0, []string{"studio staff <command>", "staff add", "staff list"}, notWholeUsage},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(context.Background(), tt.args, func(string) string { return "" }, &stdout, &stderr)
			if code != tt.wantCode {
				t.Errorf("exit code = %d, want %d", code, tt.wantCode)
			}
			// Asked-for help goes to stdout; usage after a mistake to stderr.
			out, other := &stdout, &stderr
			if code != 0 {
				out, other = &stderr, &stdout
			}
			if other.Len() != 0 {
				t.Errorf("unexpected output on the other stream:\n%s", other.String())
			}
			if n := strings.Count(out.String(), "Usage"); n != 1 {
				t.Errorf("the usage is printed %d times, want once:\n%s", n, out.String())
			}
			for _, w := range tt.want {
				if !strings.Contains(out.String(), w) {
					t.Errorf("output lacks %q:\n%s", w, out.String())
				}
			}
			for _, w := range tt.wantNot {
				if strings.Contains(out.String(), w) {
					t.Errorf("output has %q:\n%s", w, out.String())
				}
			}
		})
	}
}

func TestEnvironmentSetsFlagDefaults(t *testing.T) {
	var out bytes.Buffer
	env := func(k string) string {
		return map[string]string{"STUDIO_ADDR": "127.0.0.1:9999", "STUDIO_DATA": "/srv/studio", "STUDIO_REALTIME_MAX_CHANNELS": "7"}[k]
	}
	run(context.Background(), []string{"serve", "--help"}, env, &out, &out)
	for _, w := range []string{`(default "127.0.0.1:9999")`, `(default "/srv/studio")`, `(env STUDIO_REALTIME_MAX_CHANNELS) (default 7)`} {
		if !strings.Contains(out.String(), w) {
			t.Errorf("help lacks %s:\n%s", w, out.String())
		}
	}
}
