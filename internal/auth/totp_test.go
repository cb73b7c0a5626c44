package auth

import (
	"strings"
	"studio/internal/secretkey"
	"testing"
	"time"
)

// rfc6238Secret is RFC 6238's SHA-1 test secret, "12345678901234567890".
const rfc6238Secret = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"

// TestTOTPCode: RFC 6238's SHA-1 test vectors, cut to 6 digits.
func TestTOTPCode(t *testing.T) {
	for _, tt := range []struct {
		unix int64
		want string
	}{
		{59, "287082"}, {1111111109, "081804"}, {1111111111, "050471"},
		{1234567890, "005924"}, {2000000000, "279037"}, {20000000000, "353130"},
	} {
		got, err := totpCode(rfc6238Secret, totpStep(time.Unix(tt.unix, 0)))
		if err != nil || got != tt.want {
			t.Errorf("code at %d = %q, %v; want %q", tt.unix, got, err, tt.want)
		}
	}
	if _, err := totpCode("not base32!", 1); err == nil {
		t.Error("a secret that is not base32 gives a code")
	}
}

// TestTOTPMatch: one step of skew either way, and never a step at or
// before the last one used.
func TestTOTPMatch(t *testing.T) {
	now := time.Unix(1111111111, 0)
	step := totpStep(now)
	code := func(s int64) string { c, _ := totpCode(rfc6238Secret, s); return c }
	for _, tt := range []struct {
		name     string
		code     string
		lastStep int64
		want     bool
	}{
		{"now", code(step), 0, true},
		{"one step early", code(step - 1), 0, true},
		{"one step late", code(step + 1), 0, true},
		{"two steps early", code(step - 2), 0, false},
		{"two steps late", code(step + 2), 0, false},
		{"used already", code(step), step, false},
		{"an earlier step than the last used", code(step - 1), step, false},
		{"a later step than the last used", code(step + 1), step, true},
		{"wrong", "000000", 0, false},
		{"too long", code(step) + "0", 0, false},
		{"empty", "", 0, false},
	} {
		got, ok, err := totpMatch(rfc6238Secret, tt.code, now, tt.lastStep)
		if err != nil || ok != tt.want || (ok && got <= tt.lastStep) {
			t.Errorf("%s: totpMatch = %d, %v, %v; want %v", tt.name, got, ok, err, tt.want)
		}
	}
}

// TestSecretKey: sealed secrets open only with their key and factor id.
func TestSecretKey(t *testing.T) {
	k, err := secretkey.NewRandomSecretKey()
	if err != nil {
		t.Fatal(err)
	}
	other, _ := secretkey.NewRandomSecretKey()
	sealed, err := k.SealFactorSecret("JBSWY3DPEHPK3PXP", "factor-1")
	if err != nil || strings.Contains(sealed, "JBSWY3DPEHPK3PXP") {
		t.Fatalf("seal = %q, %v", sealed, err)
	}
	if got, err := k.OpenFactorSecret(sealed, "factor-1"); err != nil || got != "JBSWY3DPEHPK3PXP" {
		t.Errorf("open = %q, %v", got, err)
	}
	for name, open := range map[string]func() (string, error){
		"another factor": func() (string, error) { return k.OpenFactorSecret(sealed, "factor-2") },
		"another key":    func() (string, error) { return other.OpenFactorSecret(sealed, "factor-1") },
		"damaged":        func() (string, error) { return k.OpenFactorSecret(sealed[:len(sealed)-2], "factor-1") },
		"not sealed":     func() (string, error) { return k.OpenFactorSecret("JBSWY3DPEHPK3PXP", "factor-1") },
	} {
		if _, err := open(); err == nil {
			t.Errorf("%s: opened", name)
		}
	}
	for _, bad := range []string{"", "c2hvcnQ=", strings.Repeat("z", 64)} {
		if _, err := secretkey.ParseSecretKey(bad); err == nil {
			t.Errorf("ParseSecretKey(%q) accepted", bad)
		}
	}
}

// TestQRSVG: an SVG the client can put in a data: URI as it is.
func TestQRSVG(t *testing.T) {
	svg, err := qrSVG(totpURI("studio.test", "ada@studio.test", rfc6238Secret))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(svg, "<svg ") || !strings.HasSuffix(svg, "</svg>") || strings.ContainsAny(svg, "#%") {
		t.Errorf("qrSVG = %.200s…", svg)
	}
	if got, want := totpURI("studio.test", "ada@studio.test", "ABC"),
		"otpauth://totp/studio.test:ada@studio.test?algorithm=SHA1&digits=6&issuer=studio.test&period=30&secret=ABC"; got != want {
		t.Errorf("totpURI = %s, want %s", got, want)
	}
}
