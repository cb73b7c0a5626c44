package auth

import (
	"context"
	"errors"
	"net/http"
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

// AuthError is why Authorize refused a token: an HTTP status, GoTrue's error
// code and a message a person can read.
type AuthError struct {
	Status  int
	Code    string
	Message string
}

func (e *AuthError) Error() string { return e.Code + ": " + e.Message }

// Authorize checks an access token as every endpoint of this binary that
// takes one must: signed by one of the keys and not expired, its session and
// user still exist (a signed-out token stops working at once), and the
// session is at the assurance level the user needs (aal2 once they have a
// verified factor, or always with Config.RequireMFA).
func (s *Service) Authorize(ctx context.Context, token string) (Staff, *AuthError) {
	c, e := s.checkToken(ctx, token)
	if e != nil {
		return Staff{}, &AuthError{Status: e.status, Code: e.code, Message: e.msg}
	}
	need, err := s.requiredAAL(ctx, c.user)
	if err != nil {
		s.cfg.Logger.Error("auth: required aal", "err", err)
		return Staff{}, &AuthError{Status: http.StatusInternalServerError, Code: codeUnexpectedFailure, Message: "Unexpected failure, please try again"}
	}
	if need == aal2 && c.session.AAL != aal2 {
		return Staff{}, &AuthError{Status: http.StatusForbidden, Code: codeInsufficientAAL,
			Message: "AAL2 session is required: verify your second factor (TOTP) first"}
	}
	return Staff{UserID: c.user.ID, Email: c.user.Email, SessionID: c.session.ID, AAL: c.session.AAL,
		ExpiresAt: time.Unix(c.claims.ExpiresAt, 0)}, nil
}

// Assurance levels.
const (
	aal1 = "aal1"
	aal2 = "aal2"
)

// requiredAAL is the assurance level u's sessions must reach before they
// may read or change the studio's data.
func (s *Service) requiredAAL(ctx context.Context, u User) (string, error) {
	if s.cfg.RequireMFA {
		return aal2, nil
	}
	return aal1, nil
}

// checkToken verifies token and finds its session and user.
func (s *Service) checkToken(ctx context.Context, token string) (caller, *apiError) {
	var c caller
	claims, e := s.parseAccessToken(ctx, token)
	if e != nil {
		return c, e
	}
	c.claims = claims
	var err error
	c.session, err = s.store.FindSession(ctx, claims.SessionID)
	switch {
	case errors.Is(err, ErrSessionNotFound) || (err == nil && c.session.UserID != claims.Subject):
		return c, newError(http.StatusForbidden, codeSessionNotFound, "Session from session_id claim in JWT does not exist")
	case err != nil:
		s.cfg.Logger.Error("auth: find session", "err", err)
		return c, newError(http.StatusInternalServerError, codeUnexpectedFailure, "Unexpected failure, please try again")
	}
	c.user, err = s.store.FindUserByID(ctx, claims.Subject)
	switch {
	case errors.Is(err, ErrNotFound):
		return c, newError(http.StatusForbidden, codeUserNotFound, "User from sub claim in JWT does not exist")
	case err != nil:
		s.cfg.Logger.Error("auth: find user", "err", err)
		return c, newError(http.StatusInternalServerError, codeUnexpectedFailure, "Unexpected failure, please try again")
	}
	return c, nil
}
