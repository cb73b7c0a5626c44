package site

import (
	"bytes"
	"fmt"
	"html"
	"strings"
)

// CaptchaWidget is what the pages need to show a CAPTCHA widget in the
// public forms (--captcha-forms): the provider (hcaptcha or turnstile), the
// site key, the widget's script, and the origins the widget loads from,
// which the pages' Content-Security-Policy then admits (and only then).
type CaptchaWidget struct {
	Provider, SiteKey, ScriptURL string
	Origins                      []string
}

// captchaMarker is the element the build puts in every page's head
// (web/app/layouts/Layout.astro): the forms read from it whether they need
// a CAPTCHA, and with which widget. Without --captcha-forms it stays "off".
const captchaMarker = `<meta name="studio-captcha" content="off">`

// markerOn is the marker of w: on, with the widget's settings as data-
// attributes.
func (w CaptchaWidget) markerOn() string {
	return fmt.Sprintf(`<meta name="studio-captcha" content="on" data-provider="%s" data-site-key="%s" data-script-url="%s">`,
		html.EscapeString(w.Provider), html.EscapeString(w.SiteKey), html.EscapeString(w.ScriptURL))
}

// withCaptcha turns the marker of every page on for w, and widens the pages'
// policy to the widget's origins. It runs once at start-up.
func (s *Site) withCaptcha(w CaptchaWidget) error {
	on := []byte(w.markerOn())
	for _, f := range s.pages {
		f.csp = widenPolicy(f.csp, w.Origins)
		if !bytes.Contains(f.identity, []byte(captchaMarker)) {
			continue
		}
		rewritten := *f
		rewritten.identity = bytes.ReplaceAll(f.identity, []byte(captchaMarker), on)
		if err := rewritten.compress(); err != nil {
			return fmt.Errorf("captcha %s: %w", f.name, err)
		}
		rewritten.etag = etagOf(rewritten.identity)
		*f = rewritten
	}
	return nil
}

// widenPolicy admits origins as sources of scripts, frames, styles and
// connections in policy (Policy's), as the widgets' documentation asks.
func widenPolicy(policy string, origins []string) string {
	if len(origins) == 0 {
		return policy
	}
	extra := " " + strings.Join(origins, " ")
	directives := strings.Split(policy, "; ")
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
