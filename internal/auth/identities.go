package auth

import (
	"errors"
	"net/http"

	"github.com/google/uuid"

	"studio/internal/api"
	"studio/internal/auth/gotrue"
	"studio/internal/staff"
)

// handleUnlinkIdentity handles DELETE /auth/v1/user/identities/{id}: the
// signed-in person unlinks one of their providers' identities. The e-mail
// identity stays (the address is how staff are known, and a code can
// always be mailed to it), so it is refused, as GoTrue refuses the last
// identity. A person with a verified second factor must be at aal2.
func (s *Service) handleUnlinkIdentity(w http.ResponseWriter, r *http.Request) {
	c, ok := s.authenticate(w, r)
	if !ok {
		return
	}
	id := r.PathValue("id")
	if _, err := uuid.Parse(id); err != nil {
		gotrue.WriteError(w, r, gotrue.NewError(http.StatusNotFound, gotrue.CodeValidationFailed, "identity_id must be an UUID"))
		return
	}
	if c.user.HasVerifiedFactor() && c.session.AAL != staff.AAL2 {
		gotrue.WriteError(w, r, gotrue.NewError(http.StatusForbidden, gotrue.CodeInsufficientAAL, "AAL2 required to unlink an identity"))
		return
	}
	u := c.user
	ctx, cancel := withStoreTimeout(r)
	defer cancel()
	if id == emailIdentityID(u.ID) {
		if len(u.Identities) == 0 {
			gotrue.WriteError(w, r, gotrue.NewError(http.StatusUnprocessableEntity, gotrue.CodeSingleIdentityNotDeletable, "User must have at least 1 identity after unlinking"))
		} else {
			gotrue.WriteError(w, r, gotrue.NewError(http.StatusUnprocessableEntity, gotrue.CodeSingleIdentityNotDeletable,
				"The e-mail identity cannot be unlinked: staff are known by their address"))
		}
		return
	}
	var provider string
	for _, i := range u.Identities {
		if i.ID == id {
			provider = i.Provider
		}
	}
	if provider == "" {
		gotrue.WriteError(w, r, gotrue.NewError(http.StatusUnprocessableEntity, gotrue.CodeIdentityNotFound, "Identity doesn't exist"))
		return
	}
	switch err := s.store.RemoveIdentity(ctx, u.ID, id, s.callerAudit(r, c, staff.ActionIdentityUnlinked, provider)); {
	case errors.Is(err, staff.ErrNotFound):
		gotrue.WriteError(w, r, gotrue.NewError(http.StatusUnprocessableEntity, gotrue.CodeIdentityNotFound, "Identity doesn't exist"))
	case err != nil:
		s.failed(w, r, "remove identity", err)
	default:
		api.WriteJSON(w, http.StatusOK, map[string]any{})
	}
}
