package auth

import (
	"net/http"
	"net/url"

	"studio/internal/auth/federated"
	"studio/internal/auth/gotrue"
	"studio/internal/staff"
)

// federatedHost is the service as the federated handlers use it
// (federated.Host): their sign-ins share its rate limits, CAPTCHA,
// sessions, audit and redirect allow list.
type federatedHost struct{ s *Service }

var _ federated.Host = federatedHost{}

// Allow counts a start at a provider as a request to /otp, the id_token
// grant as one to /verify, and SSO against the service's own limit.
func (h federatedHost) Allow(w http.ResponseWriter, r *http.Request, limit federated.Limit) bool {
	switch limit {
	case federated.LimitVerify:
		return h.s.allow(w, r, h.s.limitVerify)
	case federated.LimitSSO:
		return h.s.allow(w, r, h.s.limitSSO)
	default: // federated.LimitStart
		return h.s.allow(w, r, h.s.limitOTP)
	}
}

func (h federatedHost) CheckCaptcha(w http.ResponseWriter, r *http.Request, token string) bool {
	return h.s.checkCaptcha(w, r, token)
}

// LinkingUser refuses to add a way in to a person whose session is below
// the assurance level they need (aal2 once they have a verified factor):
// 403 insufficient_aal.
func (h federatedHost) LinkingUser(w http.ResponseWriter, r *http.Request) (staff.User, bool) {
	c, ok := h.s.authenticate(w, r)
	if !ok {
		return staff.User{}, false
	}
	if h.s.requiredAAL(c.user) == staff.AAL2 && c.session.AAL != staff.AAL2 {
		gotrue.WriteError(w, r, gotrue.NewError(http.StatusForbidden, gotrue.CodeInsufficientAAL,
			"AAL2 session is required to link an identity: verify your second factor first"))
		return staff.User{}, false
	}
	return c.user, true
}

func (h federatedHost) NewSession(r *http.Request, u staff.User, method string, audit staff.AuditEntry) (federated.Tokens, *gotrue.Error) {
	answer, e := h.s.newSession(r, u, method, audit)
	if e != nil {
		return federated.Tokens{}, e
	}
	return federated.Tokens{AccessToken: answer.AccessToken, TokenType: answer.TokenType, ExpiresIn: answer.ExpiresIn,
		ExpiresAt: answer.ExpiresAt, RefreshToken: answer.RefreshToken}, nil
}

func (h federatedHost) StartSession(w http.ResponseWriter, r *http.Request, u staff.User, method string, audit staff.AuditEntry) {
	h.s.startSession(w, r, u, method, audit)
}

func (h federatedHost) Audit(r *http.Request, action string) staff.AuditEntry {
	return h.s.audit(r, action)
}

func (h federatedHost) CountSignIn(result string) { h.s.countSignIn(result) }

func (h federatedHost) Redirect(redirectTo string) url.URL {
	return h.s.cfg.Redirects.resolve(redirectTo)
}
