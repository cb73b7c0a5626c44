package auth

import (
	"errors"
	"maps"
	"net/http"
	"time"
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

// handleUserUpdate handles PUT /auth/v1/user {data}: merges data into the
// user's user_metadata (a null value removes its key) and answers the user.
// Staff have no password or phone; changing the e-mail is not offered yet.
func (s *Service) handleUserUpdate(w http.ResponseWriter, r *http.Request) {
	c, ok := s.authenticate(w, r)
	if !ok {
		return
	}
	var p userUpdateParams
	if e := decode(w, r, &p); e != nil {
		writeError(w, r, e)
		return
	}
	switch {
	case p.Password != "":
		writeError(w, r, newError(http.StatusUnprocessableEntity, codeValidationFailed, "Staff have no password: they sign in with an e-mail code"))
		return
	case p.Phone != "":
		writeError(w, r, newError(http.StatusBadRequest, codePhoneProviderDisabled, "Phone sign-in is not offered: staff sign in with an e-mail code"))
		return
	case p.Email != "" && p.Email != c.user.Email:
		writeError(w, r, newError(http.StatusUnprocessableEntity, codeValidationFailed, "Changing the e-mail address is not offered yet: an operator removes and adds staff"))
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
			writeError(w, r, newError(http.StatusBadRequest, codeValidationFailed, "user_metadata is too large (at most %d bytes)", maxMetadataBytes))
			return
		}
		ctx, cancel := withStoreTimeout(r)
		defer cancel()
		now := s.cfg.Now()
		if err := s.store.UpdateUserMetadata(ctx, u.ID, meta, now); err != nil {
			if errors.Is(err, ErrNotFound) {
				writeError(w, r, newError(http.StatusForbidden, codeUserNotFound, "User from sub claim in JWT does not exist"))
				return
			}
			s.failed(w, r, "update user", err)
			return
		}
		u.UserMetadata, u.UpdatedAt = meta, now.UTC().Truncate(time.Microsecond)
	}
	writeJSON(w, http.StatusOK, toUserJSON(u))
}
