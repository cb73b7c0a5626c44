package staff

import (
	"fmt"
	"time"

	"studio/internal/notify"
)

// Someone who guesses the 6-digit codes mailed or sent by SMS is stopped per
// person, whatever address they guess from and whichever code or channel
// they guess: MaxFailures wrong codes typed for a person (with their e-mail
// address or their phone number) within FailureWindow make every code typed
// for them refused, right or wrong, until that window ends (Failures). The
// store keeps the count, so it holds across servers, until the window ends,
// studio staff unlock or studio staff reset-mfa. An address or number that
// is no one's is counted and locked alike: the answers do not tell who is
// staff.
//
// What cannot be guessed is not counted nor refused: a mail's link (256
// random bits) and federated sign-in still sign the person in, their
// sessions go on, and passkeys and TOTP (which has its own count, per
// factor) still raise them to aal2; so a stranger who locks the codes does
// not lock the person out.

// CodeFailure is what the store writes for a refused try of a code typed
// with an address or a number (ConsumeCodeByEmail, ConsumeCodeByPhone,
// ConsumeEmailChange).
type CodeFailure struct {
	// Audit is the base of every refused try's entry (FailedTry).
	Audit AuditEntry
	// Locked is logged with the wrong code that locks the person's codes
	// out, with their address and id when they are staff; LockedMail (when
	// not nil) is then called with their address and its mail queued, for
	// a member of staff only.
	Locked     AuditEntry
	LockedMail func(to string) *notify.Email
}

// CodesLockedError is the refusal of a code typed while the person's codes
// are locked out: no code was checked.
type CodesLockedError struct {
	Until time.Time
}

func (e *CodesLockedError) Error() string {
	return fmt.Sprintf("sign-in codes locked out until %s: too many wrong codes", e.Until.Format(time.RFC3339))
}
