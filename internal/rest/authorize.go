package rest

import (
	"context"
	"net/http"
	"strings"

	"studio/internal/api"
	"studio/internal/auth"
	"studio/internal/fault"
)

// authorize checks the request's staff access token. No token, or the
// public anon key in its place (supabase-js sends the key as the bearer
// when no one is signed in), is anonymous access, which reads nothing.
func (s *Service) authorize(r *http.Request) (auth.Staff, *Error) {
	token, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	token = strings.TrimSpace(token)
	if !ok || token == "" || token == r.Header.Get("apikey") {
		return auth.Staff{}, &Error{Code: codeAnonymous,
			Message: "Anonymous access is disabled", Hint: "Sign in as staff and send the access token as Authorization: Bearer"}
	}
	ctx, cancel := context.WithTimeout(r.Context(), api.StoreTimeout)
	defer cancel()
	staff, ae := s.auth.Authorize(ctx, token)
	if ae != nil {
		return staff, authError(ae)
	}
	return staff, nil
}

// authError maps auth's refusal to PostgREST's answer: a token that does
// not verify is PGRST301, one whose session or user is gone PGRST303 (both
// 401: sign in again); a session below the assurance level it needs is 403
// (verify the second factor); a session that could not be checked is the
// answer to the store's failure (503 when it is unavailable, else 500).
func authError(ae *auth.AuthError) *Error {
	switch ae.Code {
	case auth.CodeInsufficientAAL:
		return &Error{Code: codeInsufficientPriv, Message: ae.Message,
			Hint: "Verify a TOTP factor: this session must be at aal2"}
	case auth.CodeSessionNotFound, auth.CodeUserNotFound:
		return &Error{Code: codeJWTClaims, Message: ae.Message, Hint: "Sign in again"}
	}
	switch {
	case ae.Status == http.StatusServiceUnavailable:
		return kindError(fault.Unavailable, ae.RetryAfter())
	case ae.Status >= 500:
		return kindError(fault.Internal, 0)
	}
	return &Error{Code: codeJWT, Message: ae.Message, Hint: "Sign in again"}
}
