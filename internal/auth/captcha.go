package auth

import (
	"net/http"
	"strings"

	"studio/internal/auth/gotrue"
	"studio/internal/captcha"
)

// checkCaptcha verifies token with the CAPTCHA provider when one is
// configured (Config.Captcha; with none, it returns true at once). A missing
// or rejected token is answered 400 captcha_failed, a provider that could
// not be asked 500 (logged): then it returns false. Each call asks the
// provider once. Every handler that GoTrue guards with a CAPTCHA calls it,
// after its own validation and rate limit.
func (s *Service) checkCaptcha(w http.ResponseWriter, r *http.Request, token string) bool {
	if s.cfg.Captcha == nil {
		return true
	}
	err := s.cfg.Captcha.Verify(r.Context(), token, s.cfg.ClientIP(r))
	switch {
	case err == nil:
		return true
	case captcha.IsRefusal(err):
		s.countSignIn(gotrue.CodeCaptchaFailed)
		gotrue.WriteError(w, r, gotrue.NewError(http.StatusBadRequest, gotrue.CodeCaptchaFailed, "captcha protection: request disallowed (%s)",
			strings.TrimPrefix(err.Error(), "captcha token rejected: ")))
	default:
		s.cfg.Logger.Warn("auth: captcha verification failed", "err", err)
		gotrue.WriteError(w, r, gotrue.NewError(http.StatusInternalServerError, gotrue.CodeUnexpectedFailure, "captcha verification process failed"))
	}
	return false
}
