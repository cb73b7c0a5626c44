package auth

import (
	"errors"
	"maps"
	"net/http"
	"time"

	"studio/internal/api"
	"studio/internal/auth/gotrue"
	"studio/internal/staff"
)

// userUpdateParams is the body of PUT /user.
type userUpdateParams struct {
	Data     map[string]any `json:"data"`
	Email    string         `json:"email"`
	Nonce    string         `json:"nonce"`
	Password string         `json:"password"`
	Phone    string         `json:"phone"`
}

// maxMetadataBytes bounds user_metadata as stored.
const maxMetadataBytes = 16 << 10

// handleUserUpdate handles PUT /auth/v1/user {data, email, nonce}: merges
// data into the user's user_metadata (a null value removes its key); a new
// email, with the nonce of GET /reauthenticate, is mailed a code that
// confirms it. It answers the user. Staff have no password or phone.
func (s *Service) handleUserUpdate(w http.ResponseWriter, r *http.Request) {
	c, ok := s.authenticate(w, r)
	if !ok {
		return
	}
	var p userUpdateParams
	if !gotrue.DecodeBody(w, r, &p) {
		return
	}
	switch {
	case p.Password != "":
		gotrue.WriteError(w, r, gotrue.NewError(http.StatusUnprocessableEntity, gotrue.CodeValidationFailed, "Staff have no password: they sign in with an e-mail code"))
		return
	case p.Phone != "":
		gotrue.WriteError(w, r, errPhoneNotOffered)
		return
	}
	newEmail := ""
	if p.Email != "" {
		email, e := normalizeEmail(p.Email)
		if e != nil {
			gotrue.WriteError(w, r, e)
			return
		}
		if email != c.user.Email {
			newEmail = email
		}
	}
	if newEmail != "" && c.user.HasVerifiedFactor() && c.session.AAL != staff.AAL2 {
		gotrue.WriteError(w, r, gotrue.NewError(http.StatusUnauthorized, gotrue.CodeInsufficientAAL, "AAL2 session is required to update email or password when MFA is enabled."))
		return
	}
	if newEmail != "" && !s.checkEmailChange(w, r, c, newEmail, p.Nonce) {
		return
	}
	u := c.user
	if p.Data != nil {
		meta := maps.Clone(u.UserMetadata)
		for k, v := range p.Data {
			if v == nil {
				delete(meta, k)
			} else {
				meta[k] = v
			}
		}
		if size := len(mustJSON(meta)); size > maxMetadataBytes {
			gotrue.WriteError(w, r, gotrue.NewError(http.StatusBadRequest, gotrue.CodeValidationFailed, "user_metadata is too large (at most %d bytes)", maxMetadataBytes))
			return
		}
		ctx, cancel := withStoreTimeout(r)
		defer cancel()
		now := s.cfg.Now()
		if err := s.store.UpdateUserMetadata(ctx, u.ID, meta, now); err != nil {
			if errors.Is(err, staff.ErrNotFound) {
				gotrue.WriteError(w, r, gotrue.NewError(http.StatusForbidden, gotrue.CodeUserNotFound, "User from sub claim in JWT does not exist"))
				return
			}
			s.failed(w, r, "update user", err)
			return
		}
		u.UserMetadata, u.UpdatedAt = meta, now.UTC().Truncate(time.Microsecond)
	}
	if newEmail != "" {
		// The new address is confirmed by a code mailed to it (verify type
		// email_change); until then the address stays the same.
		s.queueCode(w, r, codeRequest{user: u, to: newEmail, purpose: staff.PurposeEmailChange, newEmail: newEmail}, toUserJSON(u))
		return
	}
	api.WriteJSON(w, http.StatusOK, toUserJSON(u))
}

// checkEmailChange checks that the caller may change their address to
// newEmail: nonce is a live code from GET /reauthenticate (used up here),
// and the address is no one else's. Otherwise it answers and returns false.
func (s *Service) checkEmailChange(w http.ResponseWriter, r *http.Request, c caller, newEmail, nonce string) bool {
	if nonce == "" {
		gotrue.WriteError(w, r, gotrue.NewError(http.StatusBadRequest, gotrue.CodeReauthenticationNeeded, "Requires reauthentication: ask for a code with GET /reauthenticate"))
		return false
	}
	ctx, cancel := withStoreTimeout(r)
	defer cancel()
	failure := s.audit(r, staff.ActionLoginFailed)
	failure.Email, failure.UserID, failure.SessionID, failure.Detail = c.user.Email, c.user.ID, c.session.ID, "reauthentication"
	err := staff.ErrCodeInvalid
	if len(nonce) <= maxTokenLength {
		err = s.store.ConsumeCode(ctx, c.user.ID, staff.PurposeReauthentication, staff.CodeHash(c.user.ID, nonce), s.cfg.Now(), staff.MaxCodeTries, failure)
	}
	switch {
	case errors.Is(err, staff.ErrCodeInvalid):
		gotrue.WriteError(w, r, gotrue.NewError(http.StatusBadRequest, gotrue.CodeReauthenticationNotValid, "Reauthentication code is invalid or has expired"))
		return false
	case err != nil:
		s.failed(w, r, "reauthenticate", err)
		return false
	}
	switch _, err := s.store.FindUserByEmail(ctx, newEmail); {
	case err == nil:
		gotrue.WriteError(w, r, gotrue.NewError(http.StatusUnprocessableEntity, gotrue.CodeEmailExists, "A user with this email address has already been registered"))
		return false
	case !errors.Is(err, staff.ErrNotFound):
		s.failed(w, r, "find user", err)
		return false
	}
	return true
}

// handleReauthenticate handles GET /auth/v1/reauthenticate: mails the
// caller a nonce, which PUT /user asks for to change the e-mail address.
func (s *Service) handleReauthenticate(w http.ResponseWriter, r *http.Request) {
	c, ok := s.authenticate(w, r)
	if !ok {
		return
	}
	s.queueCode(w, r, codeRequest{user: c.user, to: c.user.Email, purpose: staff.PurposeReauthentication}, struct{}{})
}
