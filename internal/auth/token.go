package auth

import (
	"errors"
	"net/http"

	"studio/internal/api"
	"studio/internal/auth/gotrue"
	"studio/internal/staff"
)

// handleToken handles POST /auth/v1/token?grant_type=…: refresh_token, pkce
// (pkce.go) and id_token (package federated); the others answer why not.
func (s *Service) handleToken(w http.ResponseWriter, r *http.Request) {
	switch grant := r.URL.Query().Get("grant_type"); grant {
	case "refresh_token":
		s.refreshTokenGrant(w, r)
	case "password":
		gotrue.WriteError(w, r, gotrue.NewError(http.StatusBadRequest, gotrue.CodeInvalidCredentials, "Password sign-in is not offered: staff sign in with an e-mail code"))
	case "pkce":
		s.pkceGrant(w, r)
	case "id_token":
		s.federated.IDTokenGrant(w, r)
	default:
		gotrue.WriteError(w, r, gotrue.NewError(http.StatusBadRequest, gotrue.CodeInvalidCredentials, "unsupported_grant_type"))
	}
}

// refreshParams is the body of the refresh_token grant.
type refreshParams struct {
	RefreshToken string `json:"refresh_token"`
}

// refreshTokenGrant trades a refresh token for a new session answer and a
// new refresh token (rotation). A token used again within
// RefreshReuseGrace gets a fresh child too; after that, its reuse ends the
// session (400 refresh_token_already_used).
func (s *Service) refreshTokenGrant(w http.ResponseWriter, r *http.Request) {
	var p refreshParams
	if !gotrue.DecodeBody(w, r, &p) {
		return
	}
	if p.RefreshToken == "" {
		gotrue.WriteError(w, r, gotrue.NewError(http.StatusBadRequest, gotrue.CodeValidationFailed, "refresh_token required"))
		return
	}
	if !s.allow(w, r, s.limitToken) {
		return
	}
	if len(p.RefreshToken) > maxTokenLength {
		gotrue.WriteError(w, r, gotrue.NewError(http.StatusBadRequest, gotrue.CodeRefreshTokenNotFound, "Invalid Refresh Token: Refresh Token Not Found"))
		return
	}
	next, err := staff.NewRefreshToken()
	if err != nil {
		s.failed(w, r, "new refresh token", err)
		return
	}
	ctx, cancel := withStoreTimeout(r)
	defer cancel()
	now := s.cfg.Now()
	sess, u, err := s.store.RefreshSession(ctx, staff.RefreshHash(p.RefreshToken), staff.RefreshHash(next), now, RefreshReuseGrace, s.sessionLimit)
	switch {
	case errors.Is(err, staff.ErrRefreshTokenNotFound):
		gotrue.WriteError(w, r, gotrue.NewError(http.StatusBadRequest, gotrue.CodeRefreshTokenNotFound, "Invalid Refresh Token: Refresh Token Not Found"))
		return
	case errors.Is(err, staff.ErrSessionNotFound):
		gotrue.WriteError(w, r, gotrue.NewError(http.StatusBadRequest, gotrue.CodeSessionNotFound, "Invalid Refresh Token: No Valid Session Found"))
		return
	case errors.Is(err, staff.ErrSessionPastTimebox):
		gotrue.WriteError(w, r, gotrue.NewError(http.StatusBadRequest, gotrue.CodeSessionExpired, "Invalid Refresh Token: Session Expired"))
		return
	case errors.Is(err, staff.ErrSessionInactive):
		gotrue.WriteError(w, r, gotrue.NewError(http.StatusBadRequest, gotrue.CodeSessionExpired, "Invalid Refresh Token: Session Expired (Inactivity)"))
		return
	case errors.Is(err, staff.ErrRefreshTokenReused):
		s.cfg.Logger.Warn("auth: refresh token used again after the grace window; session ended", "session_id", sess.ID)
		gotrue.WriteError(w, r, gotrue.NewError(http.StatusBadRequest, gotrue.CodeRefreshTokenAlreadyUsed, "Invalid Refresh Token: Already Used"))
		return
	case err != nil:
		s.failed(w, r, "refresh session", err)
		return
	}
	answer, err := s.sessionAnswer(ctx, u, sess, next, now)
	if err != nil {
		s.failed(w, r, "sign access token", err)
		return
	}
	api.WriteJSON(w, http.StatusOK, answer)
}
