package federated

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net/http"

	"github.com/coreos/go-oidc/v3/oidc"

	"studio/internal/auth/gotrue"
	"studio/internal/staff"
)

// idTokenParams is the body of grant_type=id_token: an ID token of an OIDC
// provider obtained elsewhere (a native app's sign-in, Google One Tap).
type idTokenParams struct {
	IDToken      string `json:"id_token"`
	AccessToken  string `json:"access_token"`
	Nonce        string `json:"nonce"` // raw: the token's nonce is its SHA-256 in hex
	Provider     string `json:"provider"`
	LinkIdentity bool   `json:"link_identity"`
}

// IDTokenGrant signs in with an ID token of a provider, verified as the
// callback's are, as GoTrue does: the token's nonce is the SHA-256 hex of
// the nonce sent, and both are present or neither; and, here, a token is
// used once (useIDToken). With link_identity and the caller's access
// token, it links the identity to the caller instead.
func (h *Handlers) IDTokenGrant(w http.ResponseWriter, r *http.Request) {
	var p idTokenParams
	if !gotrue.DecodeBody(w, r, &p) {
		return
	}
	switch {
	case p.IDToken == "":
		gotrue.WriteError(w, r, gotrue.NewError(http.StatusBadRequest, gotrue.CodeValidationFailed, "id_token required"))
		return
	case p.Provider == "":
		gotrue.WriteError(w, r, gotrue.NewError(http.StatusBadRequest, gotrue.CodeValidationFailed, "provider required"))
		return
	case p.LinkIdentity && r.Header.Get("Authorization") == "":
		gotrue.WriteError(w, r, gotrue.NewError(http.StatusBadRequest, gotrue.CodeValidationFailed, "Linking requires a valid user access token in Authorization"))
		return
	}
	linkUserID := ""
	if p.LinkIdentity {
		u, ok := h.host.LinkingUser(w, r)
		if !ok {
			return
		}
		linkUserID = u.ID
	}
	if !h.host.Allow(w, r, LimitVerify) {
		return
	}
	c, e := h.oidcProvider(r.Context(), p.Provider)
	if e != nil { // not audited: no provider of this service to name
		h.host.CountSignIn(e.Code)
		gotrue.WriteError(w, r, e)
		return
	}
	u, refusal := h.idTokenUser(r, c, p, linkUserID)
	if refusal != nil {
		h.host.CountSignIn(refusal.e.Code)
		h.auditRefusal(r, kindOIDCAudit, c.Name, *refusal)
		gotrue.WriteError(w, r, refusal.e)
		return
	}
	h.host.StartSession(w, r, u, MethodOAuth, h.host.Audit(r, staff.ActionLogin))
}

// idTokenUser verifies the grant's token, an ID token of c, and returns the
// member of staff it signs in (or links to linkUserID), or why not.
func (h *Handlers) idTokenUser(r *http.Request, c oidcClient, p idTokenParams, linkUserID string) (staff.User, *federatedRefusal) {
	tok, claims, refusal := h.verifyIDToken(r.Context(), c, p.IDToken, p.AccessToken)
	if refusal != nil {
		return staff.User{}, refusal
	}
	if (tok.Nonce != "") != (p.Nonce != "") {
		return staff.User{}, &federatedRefusal{reason: "nonce",
			e: gotrue.NewError(http.StatusBadRequest, gotrue.CodeValidationFailed, "Passed nonce and nonce in id_token should either both exist or not.")}
	}
	if sum := sha256.Sum256([]byte(p.Nonce)); p.Nonce != "" && !NonceMatches(tok.Nonce, hex.EncodeToString(sum[:])) {
		return staff.User{}, &federatedRefusal{reason: "nonce", e: gotrue.NewError(http.StatusBadRequest, gotrue.CodeValidationFailed, "Nonces mismatch")}
	}
	ctx, cancel := withStoreTimeout(r)
	defer cancel()
	if refusal := h.useIDToken(ctx, tok); refusal != nil {
		return staff.User{}, refusal
	}
	person := c.person(tok, claims)
	return h.federatedUser(ctx, r, person, linkUserID)
}

// errIDTokenUsed refuses an ID token that signed in (or was refused past
// its checks) before.
var errIDTokenUsed = gotrue.NewError(http.StatusBadRequest, gotrue.CodeValidationFailed, "ID token has already been used")

// useIDToken records tok, a verified ID token, as used until it expires, in
// the store every server shares (the table of used SAML assertions, under
// a hash of its own kind), or refuses it when it was used before: an ID
// token without a nonce is bound to no sign-in, so whoever holds it could
// otherwise start a session with it again and again. The key is the
// token's verified payload, not its text, which has other spellings (the
// signature's last base64 character carries bits that decode to nothing).
func (h *Handlers) useIDToken(ctx context.Context, tok *oidc.IDToken) *federatedRefusal {
	var payload json.RawMessage
	if err := tok.Claims(&payload); err != nil {
		return &federatedRefusal{reason: "id token invalid", e: errBadIDToken}
	}
	err := h.store.UseAssertion(ctx, staff.Hash("oidc id token", tok.Issuer, string(payload)), tok.Expiry, h.cfg.Now())
	switch {
	case errors.Is(err, staff.ErrExists):
		return &federatedRefusal{reason: "id token replayed", e: errIDTokenUsed}
	case err != nil:
		return &federatedRefusal{reason: "store", e: h.storeFailure("use ID token", err)}
	}
	return nil
}
