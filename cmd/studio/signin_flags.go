package main

import (
	"errors"
	"flag"
	"fmt"
	"strings"

	"studio/internal/auth"
	"studio/internal/captcha"
	"studio/internal/server"
	"studio/internal/site"
	"studio/internal/sms"
)

// signInFlags are the flags of the ways in besides e-mail codes and TOTP:
// phone codes (--sms-*) and the CAPTCHA (--captcha-*).
type signInFlags struct {
	captchaProvider  string
	captchaSecret    *secretFlag
	captchaSiteKey   string
	captchaVerifyURL string
	captchaScriptURL string
	captchaForms     bool
	smsURL           *secretFlag
	smsFrom          string
}

func bindSignInFlags(fs *flag.FlagSet, env func(string) string) *signInFlags {
	var f signInFlags
	envString(fs, &f.captchaProvider, "captcha-provider", "STUDIO_CAPTCHA_PROVIDER", "", "hcaptcha or turnstile: a CAPTCHA token is then required on /auth/v1/otp, /verify, /recover, /resend and /sso, and the console's sign-in shows the widget; empty: none", env)
	f.captchaSecret = bindSecret(fs, "captcha-secret", "STUDIO_CAPTCHA_SECRET", "the CAPTCHA provider's secret key", env)
	envString(fs, &f.captchaSiteKey, "captcha-site-key", "STUDIO_CAPTCHA_SITE_KEY", "", "the CAPTCHA provider's site key, which the console's sign-in and the public forms show the widget with (needed by --captcha-provider)", env)
	envString(fs, &f.captchaVerifyURL, "captcha-verify-url", "STUDIO_CAPTCHA_VERIFY_URL", "", "where tokens are verified (a self-hosted or test verifier); empty: the provider's siteverify", env)
	envString(fs, &f.captchaScriptURL, "captcha-script-url", "STUDIO_CAPTCHA_SCRIPT_URL", "", "the widget's script, which the console's sign-in and the public forms load; empty: the provider's", env)
	envBool(fs, &f.captchaForms, "captcha-forms", "STUDIO_CAPTCHA_FORMS", false, "the public forms (contact, waitlist, newsletter) need a CAPTCHA token too, so they cannot be sent without JavaScript", env)
	f.smsURL = bindSecret(fs, "sms-url", "STUDIO_SMS_URL", "Messages endpoint in Twilio's shape, the account's id and token as user and password (https://SID:TOKEN@api.twilio.com/2010-04-01/Accounts/SID/Messages.json): staff with a phone may then sign in with a code by SMS, and enrol a phone factor; empty: off", env)
	envString(fs, &f.smsFrom, "sms-from", "STUDIO_SMS_FROM", "", "sender of the codes sent by SMS: a number (+E.164) or a messaging service id (MG…)", env)
	return &f
}

// captcha is the verifier of the CAPTCHA flags, nil when off.
func (f *signInFlags) captcha() (*captcha.Verifier, error) {
	v, err := captcha.New(captcha.Config{Provider: f.captchaProvider, Secret: f.captchaSecret.value(), SiteKey: f.captchaSiteKey,
		VerifyURL: f.captchaVerifyURL, ScriptURL: f.captchaScriptURL})
	if err != nil {
		return nil, fmt.Errorf("--captcha-*: %w", err)
	}
	if f.captchaForms && v == nil {
		return nil, errors.New("--captcha-forms needs --captcha-provider, --captcha-secret and --captcha-site-key")
	}
	if v != nil && v.SiteKey() == "" { // the console's sign-in shows the widget with it
		return nil, errors.New("--captcha-provider needs --captcha-site-key: the console's sign-in shows the widget with it")
	}
	return v, nil
}

// sms is the sender of the --sms-* flags, nil when off.
func (f *signInFlags) sms() (auth.SMSSender, error) {
	if f.smsURL.value() == "" {
		if f.smsFrom != "" {
			return nil, errors.New("--sms-from needs --sms-url")
		}
		return nil, nil
	}
	t, err := sms.NewTwilio(f.smsURL.value(), f.smsFrom, nil)
	if err != nil {
		return nil, fmt.Errorf("--sms-url: %w", err) // never quotes the URL
	}
	return t, nil
}

// secretFlag is a string flag whose environment variable's value is never
// shown as its default by --help (a password, a secret key).
type secretFlag struct{ flagValue, envValue string }

func bindSecret(fs *flag.FlagSet, name, envVar, usage string, env func(string) string) *secretFlag {
	s := &secretFlag{envValue: strings.TrimSpace(env(envVar))}
	fs.StringVar(&s.flagValue, name, "", fmt.Sprintf("%s (env %s)", usage, envVar))
	return s
}

// value is the flag's value, else the environment variable's.
func (s *secretFlag) value() string {
	if s.flagValue != "" {
		return s.flagValue
	}
	return s.envValue
}

// captchaWidget is the widget the pages show with v (nil: none), and the
// pages that show it: every page with --captcha-forms, else only the
// console's, whose sign-in needs a token whenever a provider is set.
func (f *signInFlags) captchaWidget(v *captcha.Verifier) (*site.CaptchaWidget, []string) {
	if v == nil {
		return nil, nil
	}
	w := &site.CaptchaWidget{Provider: v.Provider(), SiteKey: v.SiteKey(), ScriptURL: v.ScriptURL(), Origins: v.Origins()}
	if f.captchaForms {
		return w, nil
	}
	return w, []string{server.ConsolePath}
}

// formsCaptcha is, with --captcha-forms, the verifier of the public forms'
// tokens (v is captcha's); nil otherwise.
func (f *signInFlags) formsCaptcha(v *captcha.Verifier) *captcha.Verifier {
	if !f.captchaForms {
		return nil
	}
	return v
}
