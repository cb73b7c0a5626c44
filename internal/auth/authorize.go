package auth

import (
	"context"
	"errors"
	"net/http"
	"time"

	"studio/internal/auth/gotrue"
	"studio/internal/fault"
	"studio/internal/staff"
)

var _ staff.Gate = (*Service)(nil)

// Authorize is the staff.Gate: it checks an access token as every endpoint
// of this binary that takes one must. The refusals are GoTrue's, turned into
// the gate's kinds.
func (s *Service) Authorize(ctx context.Context, token string) (staff.Member, error) {
	c, e := s.checkToken(ctx, token)
	if e != nil {
		return staff.Member{}, gateRefusal(e)
	}
	if s.requiredAAL(c.user) == staff.AAL2 && c.session.AAL != staff.AAL2 {
		return staff.Member{}, staff.ErrAAL2Required
	}
	return staff.Member{UserID: c.user.ID, Email: c.user.Email, SessionID: c.session.ID, AAL: c.session.AAL,
		ExpiresAt: time.Unix(c.claims.ExpiresAt, 0)}, nil
}

// gateRefusal is checkToken's refusal as the gate says it.
func gateRefusal(e *gotrue.Error) error {
	switch {
	case e.Code == gotrue.CodeSessionNotFound || e.Code == gotrue.CodeUserNotFound:
		return staff.ErrSessionEnded
	case e.Status == http.StatusServiceUnavailable:
		return fault.WithRetryAfter(fault.Mark(fault.Unavailable, e), e.RetryAfter())
	case e.Status >= 500:
		return fault.Mark(fault.Internal, e)
	}
	return staff.TokenRefused(e.Message)
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
func (s *Service) checkToken(ctx context.Context, token string) (caller, *gotrue.Error) {
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
		return c, gotrue.NewError(http.StatusForbidden, gotrue.CodeSessionNotFound, "Session from session_id claim in JWT does not exist")
	case err != nil:
		return c, s.storeFailure("find session", err)
	case s.sessionLimit(c.session) != nil:
		return c, gotrue.NewError(http.StatusForbidden, gotrue.CodeSessionExpired, "Session is no longer valid")
	}
	return c, nil
}
