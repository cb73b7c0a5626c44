// Package staff holds the nouns of staff sign-in: the member of staff (User),
// their sessions, one-time codes, second factors, federated identities and
// providers, the signing keys, the audit log, their Store interface and the
// errors it returns. The store implements Store; the protocols (auth's
// /auth/v1 handlers, rest, realtime, storage) use these nouns, so the store
// never imports a protocol nor what a protocol needs (SAML, OIDC, WebAuthn
// libraries).
package staff

import (
	"context"
	"errors"
	"time"

	"studio/internal/fault"
	"studio/internal/notify"
)

// User is a member of staff.
type User struct {
	ID               string // UUID
	Email            string // lower case
	UserMetadata     map[string]any
	CreatedAt        time.Time
	UpdatedAt        time.Time
	EmailConfirmedAt *time.Time // set at the first sign-in
	LastSignInAt     *time.Time
	Factors          []Factor   // oldest first
	Identities       []Identity // federated, oldest first (the e-mail identity is implied)
	Phone            string     // E.164 digits without the "+" (GoTrue's form); "" for none
}

// HasVerifiedFactor reports whether the user has a verified second factor:
// then their sessions must reach aal2.
func (u User) HasVerifiedFactor() bool {
	for _, f := range u.Factors {
		if f.Verified() {
			return true
		}
	}
	return false
}

// Name is the name given with "studio staff add --name", if any.
func (u User) Name() string {
	name, _ := u.UserMetadata["name"].(string)
	return name
}

// Session is one signed-in device of a user. Its id is the access token's
// session_id claim; a token whose session is gone is refused.
type Session struct {
	ID          string // UUID
	UserID      string
	CreatedAt   time.Time
	RefreshedAt time.Time
	AAL         string // aal1 or aal2
	AMR         []AMREntry
	FactorID    string // the factor that raised it to aal2, if any
}

// AMREntry is one way the session's user proved who they are.
type AMREntry struct {
	Method    string `json:"method"`
	Timestamp int64  `json:"timestamp"`
}

// Purposes of one-time codes.
const (
	PurposeSignIn           = "signin"
	PurposeRecovery         = "recovery"
	PurposeReauthentication = "reauthentication" // the nonce PUT /user asks for
	PurposeEmailChange      = "email_change"     // mailed to the new address
	PurposeSMS              = "sms"              // sent by SMS to the user's phone
)

// Code is a one-time sign-in code as stored: only hashes of the code and of
// the link's token.
type Code struct {
	UserID    string
	Purpose   string
	CodeHash  string
	LinkHash  string
	CreatedAt time.Time
	ExpiresAt time.Time
	// CodeChallenge and its method (s256 or plain) are set when the client
	// asked for the PKCE flow: the link's token is then the auth code of
	// grant_type=pkce, redeemed only with the verifier (not by /verify).
	CodeChallenge       string
	CodeChallengeMethod string
	// NewEmail is the address a code of PurposeEmailChange confirms.
	NewEmail string
}

// SignIn is the session a one-time code starts once it is used, in the
// transaction that uses it (ConsumeCodeByEmail, ConsumeCodeByPhone,
// ConsumeEmailChange, ConsumeLink): the session (its UserID, the code's
// user, is filled in by the store), its first refresh token's hash, and the
// sign-in's audit entry (the store fills in the user's address and id and
// the session's id).
type SignIn struct {
	Session     Session
	RefreshHash string
	Audit       AuditEntry
}

// SigningKey is a key that signs access tokens.
type SigningKey struct {
	KID        string
	Algorithm  string // ES256
	PrivateKey []byte // PKCS #8 DER sealed with the SecretKey; in clear (IsSealed false) when a release before --secret-key stored it
	CreatedAt  time.Time
}

// AuditEntry is one line of the audit log.
type AuditEntry struct {
	At        time.Time `json:"at"`
	Action    string    `json:"action"`
	Email     string    `json:"email"`
	UserID    string    `json:"user_id"`
	SessionID string    `json:"session_id"`
	IP        string    `json:"ip"`
	Detail    string    `json:"detail"`
}

// Audit actions.
const (
	ActionStaffAdded     = "staff_added"
	ActionStaffRemoved   = "staff_removed"
	ActionCodeIssued     = "code_issued"
	ActionLogin          = "login"
	ActionLoginFailed    = "login_failed"
	ActionLogout         = "logout"
	ActionTokenReused    = "refresh_token_reused"
	ActionCodeCLIPrinted = "code_printed"
	ActionFactorEnrolled = "factor_enrolled"
	ActionFactorVerified = "factor_verified" // a session reached aal2 with it
	ActionFactorFailed   = "factor_verify_failed"
	ActionFactorLocked   = "factor_locked_out" // MaxFailures wrong codes: someone is guessing
	ActionFactorRemoved  = "factor_unenrolled"
	ActionCodesLocked    = "codes_locked_out" // MaxFailures wrong codes typed for a person: someone is guessing
	ActionCodesUnlocked  = "codes_unlocked"   // studio staff unlock
)

// FailedTry is the audit entry of a try of a one-time code that the store
// refused with refused (ErrCodeInvalid, ErrPKCERequired, *CodesLockedError,
// …): e, of the code's user when there was a code (userID), and saying why
// when there is more to say than a wrong code. The store writes it in the try's
// transaction: a failed try is logged there and only there.
func FailedTry(e AuditEntry, userID string, refused error) AuditEntry {
	if userID != "" {
		e.UserID = userID
	}
	var locked *CodesLockedError
	switch {
	case errors.Is(refused, ErrPKCERequired):
		e.Detail = "pkce link without its verifier"
	case errors.As(refused, &locked):
		if e.Detail != "" {
			e.Detail += ", "
		}
		e.Detail += "codes locked out"
	}
	return e
}

// Errors the store returns. Each handler answers them with GoTrue's code
// for the case; those that name a kind of failure (package fault) are of
// that kind, so that one no handler expects is still answered for what it
// is (a 404, a 409), not as a bug.
var (
	ErrNotFound              = fault.New(fault.NotFound, "not found")
	ErrExists                = fault.New(fault.Conflict, "already exists")
	ErrCodeInvalid           = fault.New(fault.Invalid, "code is wrong, expired, used or dead")
	ErrRefreshTokenNotFound  = fault.New(fault.NotFound, "refresh token not found")
	ErrRefreshTokenReused    = errors.New("refresh token already used")
	ErrSessionNotFound       = fault.New(fault.NotFound, "session not found")
	ErrEmailSendRateExceeded = errors.New("e-mail asked for too soon")
	ErrFlowStateExpired      = errors.New("PKCE auth code expired")
	ErrBadCodeVerifier       = errors.New("PKCE code verifier does not match")
	ErrPKCERequired          = errors.New("the code was asked for with a PKCE challenge: only its verifier redeems its link")
)

// Assurance levels of a session.
const (
	AAL1 = "aal1"
	AAL2 = "aal2"
)

// LogoutScope says which sessions a sign-out ends.
type LogoutScope string

// The scopes of POST /logout.
const (
	ScopeGlobal LogoutScope = "global" // every session of the user
	ScopeLocal  LogoutScope = "local"  // this session
	ScopeOthers LogoutScope = "others" // every session but this one
)

// Store keeps the service's state; package store implements it for SQLite
// and PostgreSQL. Every method that writes commits before it returns nil.
type Store interface {
	FederatedStore

	// FindUserByEmail, FindUserByID and FindUserByPhone return ErrNotFound
	// for no one.
	FindUserByEmail(ctx context.Context, email string) (User, error)
	FindUserByID(ctx context.Context, id string) (User, error)
	FindUserByPhone(ctx context.Context, phone string) (User, error)
	// UpdateUserMetadata replaces the user's user_metadata.
	UpdateUserMetadata(ctx context.Context, userID string, meta map[string]any, now time.Time) error

	// ClaimEmailSend records that a mail to the address of addressHash is
	// sent at now, unless one was within interval: then it returns
	// ErrEmailSendRateExceeded and how long until one may be sent. When
	// code is not nil, it also replaces the user's live code of that
	// purpose with it and queues mail in the outbox, in the same
	// transaction.
	ClaimEmailSend(ctx context.Context, addressHash string, now time.Time, interval time.Duration,
		code *Code, mail *notify.Email, audit AuditEntry) (retryAfter time.Duration, err error)
	// CreateCode replaces the user's live code of c's purpose with c.
	CreateCode(ctx context.Context, c Code, audit AuditEntry) error
	// QueueCode replaces the user's live code of c's purpose with c and
	// queues mail (when not nil) in the outbox, in one transaction.
	QueueCode(ctx context.Context, c Code, mail *notify.Email, audit AuditEntry) error
	// The Consume methods are tries of a one-time code. A try that does
	// not use the code adds FailedTry(failure, …) (failure.Audit for a
	// CodeFailure) to the audit log in its transaction.
	//
	// A code typed with an address or a number (ConsumeCodeByEmail,
	// ConsumeCodeByPhone, ConsumeEmailChange) is tried for the person it
	// names: the member of staff with that address or number, else the
	// address or number itself. While the person's codes are locked out
	// (Failures.LockedUntil) no code is checked: *CodesLockedError. A
	// wrong code (ErrCodeInvalid) counts against the person, in the same
	// transaction; the one that makes MaxFailures within
	// FailureWindow logs failure.Locked and, for a member of staff,
	// queues failure.LockedMail. The work is the same whether the person is
	// staff or not.

	// ConsumeCode uses the user's live code of purpose if its hash is
	// codeHash (compared in constant time) and it has not expired nor been
	// tried maxTries times (every try counts, and the last one kills the
	// code's link too). It returns ErrCodeInvalid otherwise.
	ConsumeCode(ctx context.Context, userID, purpose, codeHash string, now time.Time, maxTries int, failure AuditEntry) error
	// ConsumeCodeByEmail is ConsumeCode for the member of staff with the
	// address email, the code checked by match(userID, codeHash). When
	// start is not nil, the code used starts that session in the same
	// transaction, and the user is returned as the sign-in left them (only
	// their ID otherwise). It does the same work whether the address is
	// staff's or not, with a live code or not: the time taken tells
	// nothing.
	ConsumeCodeByEmail(ctx context.Context, email, purpose string, now time.Time, maxTries int,
		match func(userID, codeHash string) bool, failure CodeFailure, start *SignIn) (User, error)
	// ConsumeCodeByPhone is ConsumeCodeByEmail for the member of staff
	// whose phone is phone.
	ConsumeCodeByPhone(ctx context.Context, phone, purpose string, now time.Time, maxTries int,
		match func(userID, codeHash string) bool, failure CodeFailure, start *SignIn) (User, error)
	// ConsumeEmailChange uses the live e-mail change code sent to email (or
	// of the user whose address email still is) when match(userID, hash)
	// holds for it, and makes its new address the user's; ErrCodeInvalid
	// (every try counts), or ErrExists when the new address became someone
	// else's meanwhile (the code is used, not a failed try, and no session
	// starts). start as for ConsumeCodeByEmail.
	ConsumeEmailChange(ctx context.Context, email string, now time.Time, maxTries int,
		match func(userID, codeHash string) bool, failure CodeFailure, start *SignIn) (User, error)
	// ConsumeLink uses the live code of purpose whose link hash is linkHash
	// and returns its user, or ErrCodeInvalid (also for a code tried
	// maxTries times). The link of an e-mail change code makes its new
	// address the user's. A code with a PKCE challenge is left untouched:
	// ErrPKCERequired. start as for ConsumeCodeByEmail.
	ConsumeLink(ctx context.Context, linkHash, purpose string, now time.Time, maxTries int, failure AuditEntry,
		start *SignIn) (User, error)
	// ConsumePKCE uses the code with a challenge whose link hash is
	// linkHash when verifier(challenge, method) holds, and returns its user
	// and the code's purpose.
	// ErrNotFound for no such live code, ErrFlowStateExpired for one that
	// expired, ErrBadCodeVerifier (counted as a wrong try) otherwise.
	ConsumePKCE(ctx context.Context, linkHash string, now time.Time, maxTries int,
		verifier func(challenge, method string) bool, failure AuditEntry) (userID, purpose string, err error)

	// StartSession stores s with its first refresh token and records the
	// sign-in on the user.
	StartSession(ctx context.Context, s Session, refreshHash string, audit AuditEntry) error
	// FindSessionUser returns the session and its user (with factors and
	// identities);
	// ErrSessionNotFound for a session that ended.
	FindSessionUser(ctx context.Context, id string) (Session, User, error)
	// RefreshSession rotates the refresh token of hash oldHash to newHash.
	// A token used again within grace of its first use gets a new child
	// too; later, the whole session is ended and ErrRefreshTokenReused
	// returned. ErrRefreshTokenNotFound and ErrSessionNotFound as named;
	// when valid returns an error for the session, nothing is rotated and
	// that error is returned.
	RefreshSession(ctx context.Context, oldHash, newHash string, now time.Time, grace time.Duration,
		valid func(Session) error) (Session, User, error)
	// EndSessions ends the sessions of userID that scope names, relative to
	// sessionID.
	EndSessions(ctx context.Context, userID, sessionID string, scope LogoutScope, audit AuditEntry) error

	// EnsureSigningKey stores candidate if the store has no signing key yet
	// (a zero candidate: never), and returns every signing key, newest
	// first.
	EnsureSigningKey(ctx context.Context, candidate SigningKey) ([]SigningKey, error)

	// CreateFactor removes the user's unverified factors made before
	// staleBefore that were never challenged, then calls check with the
	// user's other factors and stores f when check returns nil (else its
	// error).
	CreateFactor(ctx context.Context, f Factor, staleBefore time.Time, check func([]Factor) error, audit AuditEntry) error
	// CreateChallenge stores c and notes when its factor was challenged;
	// ErrNotFound when the factor is gone.
	CreateChallenge(ctx context.Context, c Challenge, audit AuditEntry) error
	// VerifyFactor reads, in one transaction, the FactorAttempt of v: the
	// factor, its row locked (two verifications of one factor never
	// interleave), the challenge and the session. It writes what v.Decide
	// says and returns the raised session with its user (and factors), or
	// the decision's refusal.
	VerifyFactor(ctx context.Context, v FactorVerification) (Session, User, error)
	// DeleteFactor removes the user's factor and lowers to aal1 the sessions
	// it raised; ErrNotFound when there is no such factor.
	DeleteFactor(ctx context.Context, userID, factorID string, audit AuditEntry) error

	WebAuthnStore
}
