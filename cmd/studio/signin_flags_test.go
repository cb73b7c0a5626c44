package main

import (
	"strings"
	"testing"
)

// TestSMSURLNeverShown: the --sms-url password (the account's token) and
// the --captcha-secret are shown neither by --help (as a default read from
// the environment) nor in the error of a bad value.
func TestSMSURLNeverShown(t *testing.T) {
	const token = "tok-very-secret"
	env := func(k string) string {
		switch k {
		case "STUDIO_SMS_URL":
			return "https://AC1:" + token + "@api.twilio.com/2010-04-01/Accounts/AC1/Messages.json"
		case "STUDIO_CAPTCHA_SECRET":
			return token
		}
		return ""
	}
	code, stdout, stderr := runCLI(t, env, "serve", "--help")
	if code != 0 || strings.Contains(stdout+stderr, token) || !strings.Contains(stdout+stderr, "-sms-url") {
		t.Errorf("serve --help = %d, shows the token or lacks --sms-url:\n%s%s", code, stdout, stderr)
	}
	for _, args := range [][]string{
		{"serve", "--data", t.TempDir(), "--sms-url", "ftp://AC1:" + token + "@example.com/x", "--sms-from", "+15005550006"},
		{"serve", "--data", t.TempDir(), "--sms-url", "https://AC1:" + token + "@exa mple.com/%zz", "--sms-from", "+15005550006"},
		{"serve", "--data", t.TempDir(), "--sms-url", "https://AC1:" + token + "@example.com/x"},
	} {
		code, stdout, stderr := runCLI(t, nil, args...)
		if code == 0 || strings.Contains(stdout+stderr, token) || !strings.Contains(stderr, "--sms") {
			t.Errorf("%v = %d, %s%s", args, code, stdout, stderr)
		}
	}
}

// TestCaptchaNeedsSiteKey: a CAPTCHA provider without a site key is refused
// at start-up, as the console's sign-in could not show the widget (and staff
// could not sign in).
func TestCaptchaNeedsSiteKey(t *testing.T) {
	for _, tt := range []struct {
		name string
		args []string
	}{
		{"provider", []string{"--captcha-provider", "hcaptcha", "--captcha-secret", "s"}},
		{"forms", []string{"--captcha-provider", "turnstile", "--captcha-secret", "s", "--captcha-forms"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			// (A bad --smtp-url, read after the CAPTCHA flags, stops a serve that would start.)
			args := append([]string{"serve", "--data", t.TempDir(), "--smtp-url", "bad://", "--notify-to", "a@studio.test"}, tt.args...)
			code, stdout, stderr := runCLI(t, nil, args...)
			if code == 0 || !strings.Contains(stderr, "--captcha-site-key") {
				t.Errorf("serve %v = %d, %s%s; want a refusal naming --captcha-site-key", tt.args, code, stdout, stderr)
			}
		})
	}
}
