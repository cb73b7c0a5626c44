package server

import (
	"net/http"

	"studio/internal/captcha"
	"studio/internal/form"
)

// captchaField is where a call to a function carries its CAPTCHA token (a
// top-level JSON field, or a form field of that name).
const captchaField = "captcha_token"

// problemCaptcha is the reason a native form post fails for with
// --captcha-forms: a form posted without JavaScript has no token.
const problemCaptcha = "captcha"

// checkCaptcha verifies the call's token when the functions need one
// (FunctionsConfig.Captcha): a missing or rejected token is 400 (a native
// form post: the problem page captcha, which says the form needs
// JavaScript), a provider that could not be asked 503; then it returns
// false and nothing is stored.
func (f *functions) checkCaptcha(c *call, r *http.Request, token string) bool {
	if f.cfg.Captcha == nil {
		return true
	}
	err := f.cfg.Captcha.Verify(r.Context(), token, clientIP(r, f.cfg.TrustedProxies).String())
	switch {
	case err == nil:
		return true
	case captcha.IsRefusal(err):
		c.fail(http.StatusBadRequest, form.Rules.Errors.Captcha, problemCaptcha)
	default:
		f.logger.Warn("captcha verification failed", "path", r.URL.Path, "err", err)
		c.fail(http.StatusServiceUnavailable, form.Rules.Errors.Unavailable, problemUnavailable)
	}
	return false
}
