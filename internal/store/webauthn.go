package store

import (
	"context"
	"database/sql"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"strings"
	"studio/internal/staff"
	"time"
)

// Passkeys (package auth's webauthn factors): the credential of each, and
// the ceremony kept with each of their challenges (migration 0015).

const webauthnCredentialColumns = `factor_id, credential_id, public_key, sign_count, aaguid, transports,
	attestation_type, attestation_format, flags, created_at, used_at`

var b64 = base64.RawURLEncoding

// scanWebAuthnCredential reads the webauthnCredentialColumns of row.
func (s *DB) scanWebAuthnCredential(row scanner) (staff.WebAuthnCredential, error) {
	var c staff.WebAuthnCredential
	var id, key, aaguid, transports string
	var count int64
	var flags int
	err := row.Scan(&c.FactorID, &id, &key, &count, &aaguid, &transports, &c.AttestationType, &c.AttestationFormat, &flags,
		s.d.timeDest(&c.CreatedAt), nullTimeDest(&c.UsedAt))
	if err != nil {
		return c, err
	}
	c.SignCount, c.Flags = uint32(count), byte(flags)
	if c.ID, err = b64.DecodeString(id); err == nil {
		c.PublicKey, err = b64.DecodeString(key)
	}
	if err == nil && aaguid != "" {
		c.AAGUID, err = hex.DecodeString(strings.ReplaceAll(aaguid, "-", ""))
	}
	if transports != "" {
		c.Transports = strings.Split(transports, ",")
	}
	return c, err
}

// WebAuthnCredentials implements staff.WebAuthnStore.
func (s *DB) WebAuthnCredentials(ctx context.Context, userID string) ([]staff.WebAuthnCredential, error) {
	var out []staff.WebAuthnCredential
	err := s.query(ctx, "read passkeys", `SELECT c.`+strings.ReplaceAll(webauthnCredentialColumns, ", ", ", c.")+`
		FROM auth_mfa_webauthn_credentials c JOIN auth_mfa_factors f ON f.id = c.factor_id
		WHERE f.user_id = ? ORDER BY c.created_at`, []any{userID}, func(rows *sql.Rows) error {
		c, err := s.scanWebAuthnCredential(rows)
		out = append(out, c)
		return err
	})
	return out, err
}

// CreateWebAuthnChallenge implements staff.WebAuthnStore.
func (s *DB) CreateWebAuthnChallenge(ctx context.Context, c staff.Challenge, ceremony string) error {
	var found bool
	err := s.write(ctx, "create webauthn challenge", func(ctx context.Context, tx *sql.Tx) error {
		var err error
		if found, err = s.insertChallenge(ctx, tx, c); err != nil || !found {
			return err
		}
		_, err = tx.ExecContext(ctx, s.d.rebind(`UPDATE auth_mfa_challenges SET webauthn = ? WHERE id = ?`), ceremony, c.ID)
		return err
	})
	if err == nil && !found {
		return staff.ErrNotFound
	}
	return err
}

// VerifyWebAuthnFactor implements staff.WebAuthnStore, as VerifyFactor does
// for a TOTP code: the factor's row is read first and FOR UPDATE, so that
// the verifications of one passkey run one after the other (two assertions
// never both pass the same signature counter).
func (s *DB) VerifyWebAuthnFactor(ctx context.Context, v staff.WebAuthnVerification) (staff.Session, staff.User, error) {
	return s.verifyFactor(ctx, "verify webauthn factor", v.FactorVerification, func(ctx context.Context, tx *sql.Tx) (staff.FactorDecision, error) {
		a, err := s.webauthnAttempt(ctx, tx, v.FactorVerification)
		if err != nil {
			return staff.FactorDecision{}, err
		}
		d, cred, err := v.Decide(a)
		if err != nil || cred == nil {
			return d, err
		}
		taken, err := s.saveWebAuthnCredential(ctx, tx, *cred, a.Credential == nil, v.Now)
		if err != nil {
			return d, err
		}
		if taken {
			d = v.Refuse(staff.ErrWebAuthnCredentialTaken)
		}
		return d, nil
	})
}

// webauthnAttempt reads v's FactorAttempt and, when it found the challenge,
// the challenge's ceremony and the factor's credential.
func (s *DB) webauthnAttempt(ctx context.Context, tx *sql.Tx, v staff.FactorVerification) (staff.WebAuthnAttempt, error) {
	fa, err := s.factorAttempt(ctx, tx, v)
	a := staff.WebAuthnAttempt{FactorAttempt: fa}
	if err != nil || fa.Challenge == nil {
		return a, err
	}
	if err := tx.QueryRowContext(ctx, s.d.rebind(`SELECT webauthn FROM auth_mfa_challenges WHERE id = ?`), v.ChallengeID).
		Scan(&a.Ceremony); err != nil {
		return a, err
	}
	c, err := s.scanWebAuthnCredential(tx.QueryRowContext(ctx, s.d.rebind(`SELECT `+webauthnCredentialColumns+`
		FROM auth_mfa_webauthn_credentials WHERE factor_id = ?`), v.FactorID))
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return a, nil
	case err != nil:
		return a, err
	}
	a.Credential = &c
	return a, nil
}

// saveWebAuthnCredential stores c: a new credential (registered), which
// another factor may hold already (taken; nothing is written), or the new
// signature counter and flags of an assertion at now.
func (s *DB) saveWebAuthnCredential(ctx context.Context, tx *sql.Tx, c staff.WebAuthnCredential, registered bool, now time.Time) (taken bool, err error) {
	if !registered {
		_, err := tx.ExecContext(ctx, s.d.rebind(`UPDATE auth_mfa_webauthn_credentials SET sign_count = ?, flags = ?, used_at = ?
			WHERE factor_id = ?`), int64(c.SignCount), int(c.Flags), s.d.timeArg(now), c.FactorID)
		return false, err
	}
	res, err := tx.ExecContext(ctx, s.d.rebind(`INSERT INTO auth_mfa_webauthn_credentials
		(factor_id, credential_id, public_key, sign_count, aaguid, transports, attestation_type, attestation_format, flags, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`),
		c.FactorID, b64.EncodeToString(c.ID), b64.EncodeToString(c.PublicKey), int64(c.SignCount), formatAAGUID(c.AAGUID),
		strings.Join(c.Transports, ","), c.AttestationType, c.AttestationFormat, int(c.Flags), s.d.timeArg(now))
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n == 0, err
}

// formatAAGUID writes an AAGUID as a UUID.
func formatAAGUID(b []byte) string {
	h := hex.EncodeToString(b)
	if len(b) != 16 {
		return h
	}
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}
