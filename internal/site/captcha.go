package site

import (
	"bytes"
	"fmt"
	"html"
	"slices"
	"strings"
)

// CaptchaWidget is what a page needs to show a CAPTCHA widget (the public
// forms with --captcha-forms, the console's sign-in with any provider): the
// provider (hcaptcha or turnstile), the site key, the widget's script, and
// the origins the widget loads from, which the page's
// Content-Security-Policy then admits (and only then).
type CaptchaWidget struct {
	Provider, SiteKey, ScriptURL string
	Origins                      []string
}

// captchaMarker is the element the build puts in every page's head
// (web/app/layouts/Layout.astro, web/app/pages/admin.astro): the page's
// script (web/app/lib/captcha.tsx) reads from it whether it needs a
// CAPTCHA, and with which widget. On a page that shows no widget it stays
// "off".
const captchaMarker = `<meta name="studio-captcha" content="off">`

// markerOn is the marker of w: on, with the widget's settings as data-
// attributes.
func (w CaptchaWidget) markerOn() string {
	return fmt.Sprintf(`<meta name="studio-captcha" content="on" data-provider="%s" data-site-key="%s" data-script-url="%s">`,
		html.EscapeString(w.Provider), html.EscapeString(w.SiteKey), html.EscapeString(w.ScriptURL))
}

// withCaptcha turns the marker on for w, and widens the policy to the
// widget's origins, on the pages at the URL paths only (empty: every page).
// It runs once at start-up.
func (s *Site) withCaptcha(w CaptchaWidget, only []string) {
	on := []byte(w.markerOn())
	for urlPath, f := range s.pages {
		if len(only) > 0 && !slices.Contains(only, urlPath) {
			continue
		}
		f.csp = widenPolicy(f.csp, w.Origins)
		if !bytes.Contains(f.identity, []byte(captchaMarker)) {
			continue
		}
		f.rewrite(bytes.ReplaceAll(f.identity, []byte(captchaMarker), on))
	}
}

// widenPolicy admits origins as sources of scripts, frames, styles and
// connections in policy (Policy's), as the widgets' documentation asks.
func widenPolicy(policy string, origins []string) string {
	if len(origins) == 0 {
		return policy
	}
	extra := " " + strings.Join(origins, " ")
	// connect-src is not in Policy (default-src covers it) until widened.
	directives := append(strings.Split(policy, "; "), "connect-src 'self'")
	for i, d := range directives {
		for _, name := range []string{"script-src", "style-src", "connect-src"} {
			if strings.HasPrefix(d, name+" ") {
				directives[i] = d + extra
			}
		}
	}
	directives = append(directives, "frame-src 'self'"+extra)
	return strings.Join(directives, "; ")
}
