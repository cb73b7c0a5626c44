package main

import (
	"encoding/json"
	"io"
	"mime/quotedprintable"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"studio/internal/notify/smtptest"
)

// TestServeStaffSignIn: the binary mails a sign-in code through the outbox
// and SMTP; the code from the mail signs in, and the access token works
// until the session is signed out. The JWKS is served at the site's root
// too.
func TestServeStaffSignIn(t *testing.T) {
	dir := t.TempDir()
	if code, _, stderr := runCLI(t, nil, "staff", "add", "ada@studio.test", "--data", dir); code != 0 {
		t.Fatal(stderr)
	}
	mail := smtptest.Start(t, 0)
	base, _ := startStudio(t, nil, "--addr", "127.0.0.1:0", "--data", dir,
		"--smtp-url", mail.URL(), "--notify-to", "team@studio.test", "--notify-from", "Studio <site@studio.test>")

	post := func(path, body string, headers ...string) (int, map[string]any) {
		t.Helper()
		req, _ := http.NewRequest("POST", base+path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		for i := 0; i+1 < len(headers); i += 2 {
			req.Header.Set(headers[i], headers[i+1])
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var out map[string]any
		_ = json.NewDecoder(resp.Body).Decode(&out)
		return resp.StatusCode, out
	}
	if status, _ := post("/auth/v1/otp", `{"email":"ada@studio.test"}`); status != 200 {
		t.Fatalf("otp = %d", status)
	}
	select {
	case <-mail.Arrived:
	case <-time.After(15 * time.Second):
		t.Fatal("no sign-in mail arrived")
	}
	got := mail.Received()
	raw := strings.ReplaceAll(got[0].Data, "\r\n", "\n")
	body, _ := io.ReadAll(quotedprintable.NewReader(strings.NewReader(raw[strings.Index(raw, "\n\n")+2:])))
	m := regexp.MustCompile(`\n    (\d{6})\n`).FindSubmatch(body)
	if m == nil || got[0].To[0] != "ada@studio.test" {
		t.Fatalf("mail to %v without a code:\n%s", got[0].To, body)
	}
	status, session := post("/auth/v1/verify", `{"type":"email","email":"ada@studio.test","token":"`+string(m[1])+`"}`)
	if status != 200 || session["access_token"] == nil {
		t.Fatalf("verify = %d %v", status, session)
	}
	token := session["access_token"].(string)
	getUser := func() int {
		req, _ := http.NewRequest("GET", base+"/auth/v1/user", nil)
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if s := getUser(); s != 200 {
		t.Errorf("GET /user = %d", s)
	}
	if status, _ := post("/auth/v1/logout", "", "Authorization", "Bearer "+token); status != 204 {
		t.Errorf("logout = %d", status)
	}
	if s := getUser(); s != 403 {
		t.Errorf("GET /user after sign-out = %d, want 403", s)
	}
	resp, jwks := get(t, base+"/.well-known/jwks.json")
	if resp.StatusCode != 200 || resp.Header.Get("Cache-Control") != "public, max-age=600" || !strings.Contains(jwks, `"kty":"EC"`) {
		t.Errorf("root JWKS = %d %q %s", resp.StatusCode, resp.Header.Get("Cache-Control"), jwks)
	}
	code, stdout, _ := runCLI(t, nil, "audit", "list", "--data", dir, "--format", "csv")
	for _, action := range []string{"code_issued", "login", "logout"} {
		if code != 0 || !strings.Contains(stdout, ","+action+",") {
			t.Errorf("audit log lacks %s:\n%s", action, stdout)
		}
	}
}

// TestServeAuthFlags: the staff sign-in flags of serve, good and bad.
func TestServeAuthFlags(t *testing.T) {
	base := serveConfig{jwtExpiry: "1h", otpExpiry: "10m", authRateLimit: "off", refreshRateLimit: "off",
		mfaChallengeExpiry: "5m", sessionTimebox: "168h", sessionInactivity: "24h"}
	for _, tt := range []struct {
		name    string
		tweak   func(*serveConfig)
		wantErr string
	}{
		{"defaults", func(*serveConfig) {}, ""},
		{"limits off", func(c *serveConfig) { c.sessionTimebox, c.sessionInactivity = "off", "off" }, ""},
		{"require MFA", func(c *serveConfig) { c.requireMFA = true }, ""},
		{"bad timebox", func(c *serveConfig) { c.sessionTimebox = "a week" }, "--session-timebox"},
		{"tiny inactivity timeout", func(c *serveConfig) { c.sessionInactivity = "10ms" }, "--session-inactivity-timeout"},
		{"bad challenge expiry", func(c *serveConfig) { c.mfaChallengeExpiry = "0s" }, "--mfa-challenge-expiry"},
		{"redirect URLs", func(c *serveConfig) { c.redirectURLs = "https://studio.test/app/**, http://localhost:3000/cb" }, ""},
		{"redirect URL with a host glob", func(c *serveConfig) { c.redirectURLs = "https://*.studio.test/**" }, "--redirect-urls"},
	} {
		c := base
		tt.tweak(&c)
		got, err := c.authConfig("https://studio.test")
		switch {
		case tt.wantErr == "" && err != nil:
			t.Errorf("%s: %v", tt.name, err)
		case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
			t.Errorf("%s: err %v, want %s", tt.name, err, tt.wantErr)
		case tt.wantErr == "" && got.RequireMFA != c.requireMFA:
			t.Errorf("%s: RequireMFA = %v", tt.name, got.RequireMFA)
		}
	}
}
