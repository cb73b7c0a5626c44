package auth

import (
	"context"
	"errors"
	"net/http"
	"studio/internal/staff"
	"time"
)

// Staff is the signed-in member of staff an access token speaks for, as the
// other services of the binary (rest/v1, realtime/v1) see them.
type Staff struct {
	UserID    string
	Email     string
	SessionID string
	AAL       string // aal1 or aal2
	ExpiresAt time.Time
}

// Authorizer checks a staff access token: *Service is one. The services
// that take a token (rest/v1, realtime/v1) depend on this, not on *Service.
type Authorizer interface {
	Authorize(ctx context.Context, token string) (Staff, *AuthError)
}

var _ Authorizer = (*Service)(nil)

// Authorize checks an access token as every endpoint of this binary that
// takes one must: signed by one of the keys and not expired, its session and
// user still exist (a signed-out token stops working at once), and the
// session is at the assurance level the user needs (aal2 once they have a
// verified factor, or always with Config.RequireMFA).
func (s *Service) Authorize(ctx context.Context, token string) (Staff, *AuthError) {
	c, e := s.checkToken(ctx, token)
	if e != nil {
		return Staff{}, e
	}
	if s.requiredAAL(c.user) == staff.AAL2 && c.session.AAL != staff.AAL2 {
		return Staff{}, &AuthError{Status: http.StatusForbidden, Code: CodeInsufficientAAL,
			Message: "AAL2 session is required: verify your second factor (TOTP) first"}
	}
	return Staff{UserID: c.user.ID, Email: c.user.Email, SessionID: c.session.ID, AAL: c.session.AAL,
		ExpiresAt: time.Unix(c.claims.ExpiresAt, 0)}, nil
}

// requiredAAL is the assurance level u's sessions must reach before they
// may read or change the studio's data: aal2 once u has a verified factor,
// or always with Config.RequireMFA.
func (s *Service) requiredAAL(u staff.User) string {
	if s.cfg.RequireMFA || u.HasVerifiedFactor() {
		return staff.AAL2
	}
	return staff.AAL1
}

// sessionLimit returns ErrSessionPastTimebox or ErrSessionInactive when
// sess has outlived Config.SessionTimebox or SessionInactivityTimeout.
func (s *Service) sessionLimit(sess staff.Session) error {
	now := s.cfg.Now()
	switch {
	case s.cfg.SessionTimebox > 0 && now.After(sess.CreatedAt.Add(s.cfg.SessionTimebox)):
		return staff.ErrSessionPastTimebox
	case s.cfg.SessionInactivityTimeout > 0 && now.After(sess.RefreshedAt.Add(s.cfg.SessionInactivityTimeout)):
		return staff.ErrSessionInactive
	}
	return nil
}

// checkToken verifies token and finds its session and user.
func (s *Service) checkToken(ctx context.Context, token string) (caller, *AuthError) {
	var c caller
	claims, e := s.parseAccessToken(ctx, token)
	if e != nil {
		return c, e
	}
	c.claims = claims
	var err error
	c.session, c.user, err = s.store.FindSessionUser(ctx, claims.SessionID)
	switch {
	case errors.Is(err, staff.ErrSessionNotFound) || (err == nil && c.session.UserID != claims.Subject):
		// A removed user's sessions are removed with them.
		return c, newError(http.StatusForbidden, CodeSessionNotFound, "Session from session_id claim in JWT does not exist")
	case err != nil:
		return c, s.storeFailure("find session", err)
	case s.sessionLimit(c.session) != nil:
		return c, newError(http.StatusForbidden, codeSessionExpired, "Session is no longer valid")
	}
	return c, nil
}
