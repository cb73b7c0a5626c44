package store

import (
	"context"
	"studio/internal/staff"
	"time"
)

// Phone codes of the staff sign-in (package auth's phone.go): the codes are
// one-time codes (codes.go) of purpose sms, found by the user's phone.

// FindUserByPhone implements staff.Store.
func (s *DB) FindUserByPhone(ctx context.Context, phone string) (staff.User, error) {
	if phone == "" {
		return staff.User{}, staff.ErrNotFound // '' is everyone's "no phone"
	}
	return s.findUser(ctx, "find user by phone", `phone = ?`, phone)
}

// ConsumeCodeByPhone implements staff.Store: ConsumeCodeByEmail's one UPDATE,
// the user (and the person whose wrong codes count) found by phone.
func (s *DB) ConsumeCodeByPhone(ctx context.Context, phone, purpose string, now time.Time, maxTries int,
	match func(userID, codeHash string) bool, failure staff.CodeFailure, start *staff.SignIn) (staff.User, error) {
	return s.tryTypedCode(ctx, "consume code", personByPhone(phone), now, failure, start,
		s.consumeCode(`user_id = (SELECT id FROM auth_users WHERE phone = ? AND phone <> '') AND purpose = ?`,
			[]any{phone, purpose}, now, maxTries, match, nil))
}
