package store

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"studio/internal/fault"
	"studio/internal/staff"
)

// Federated sign-in (package auth's FederatedStore): identity providers,
// identities, the flows under way at a provider, used SAML assertions and
// the SAML key.

const providerColumns = `id, kind, name, COALESCE(entity_id, ''), config, created_at`

// AddProvider implements staff.FederatedStore.
func (s *DB) AddProvider(ctx context.Context, p staff.Provider, audit staff.AuditEntry) error {
	err := s.write(ctx, "add provider", func(ctx context.Context, tx *sql.Tx) error {
		var entity any
		if p.EntityID != "" {
			entity = p.EntityID
		}
		if _, err := tx.ExecContext(ctx, s.d.rebind(`INSERT INTO auth_providers (id, kind, name, entity_id, config, created_at)
			VALUES (?, ?, ?, ?, ?, ?)`), p.ID, p.Kind, p.Name, entity, string(p.Config), s.d.timeArg(p.CreatedAt)); err != nil {
			return err
		}
		sso := 0
		if p.Kind == staff.KindSAML {
			sso = 1
		}
		for _, d := range p.Domains {
			if _, err := tx.ExecContext(ctx, s.d.rebind(`INSERT INTO auth_provider_domains (provider_id, domain, sso) VALUES (?, ?, ?)`),
				p.ID, d, sso); err != nil {
				return err
			}
		}
		return s.audit(ctx, tx, audit)
	})
	if err != nil && fault.KindOf(err) == fault.Conflict {
		return fmt.Errorf("add provider %s: %w", p.Name, staff.ErrExists)
	}
	return err
}

// Providers implements staff.FederatedStore.
func (s *DB) Providers(ctx context.Context) ([]staff.Provider, error) {
	var out []staff.Provider
	err := s.query(ctx, "list providers", `SELECT `+providerColumns+` FROM auth_providers ORDER BY created_at, id`, nil,
		func(rows *sql.Rows) error {
			p, err := s.scanProvider(rows)
			out = append(out, p)
			return err
		})
	if err != nil {
		return nil, err
	}
	domains := map[string][]string{}
	err = s.query(ctx, "list provider domains", `SELECT provider_id, domain FROM auth_provider_domains ORDER BY domain`, nil,
		func(rows *sql.Rows) error {
			var id, d string
			err := rows.Scan(&id, &d)
			domains[id] = append(domains[id], d)
			return err
		})
	for i := range out {
		out[i].Domains = domains[out[i].ID]
	}
	return out, err
}

// FindProvider implements staff.FederatedStore.
func (s *DB) FindProvider(ctx context.Context, nameOrID string) (staff.Provider, error) {
	return s.findProvider(ctx, "find provider", `name = ? OR id = ?`, nameOrID, nameOrID)
}

// FindSSOProviderByDomain implements staff.FederatedStore.
func (s *DB) FindSSOProviderByDomain(ctx context.Context, domain string) (staff.Provider, error) {
	return s.findProvider(ctx, "find SSO provider", `id = (SELECT provider_id FROM auth_provider_domains WHERE domain = ? AND sso = 1)`, domain)
}

func (s *DB) findProvider(ctx context.Context, op, where string, args ...any) (staff.Provider, error) {
	var p staff.Provider
	err := s.guard(ctx, op, false, true, func(ctx context.Context) error {
		err := s.inReadTx(ctx, func(tx *sql.Tx) error {
			var err error
			p, err = s.scanProvider(tx.QueryRowContext(ctx, s.d.rebind(`SELECT `+providerColumns+` FROM auth_providers WHERE `+where), args...))
			if err != nil {
				return err
			}
			p.Domains, err = s.providerDomains(ctx, tx, p.ID)
			return err
		})
		switch {
		case errors.Is(err, sql.ErrNoRows):
			return staff.ErrNotFound
		case err != nil:
			return s.fail(op, err)
		}
		return nil
	})
	return p, err
}

func (s *DB) providerDomains(ctx context.Context, q queryer, id string) ([]string, error) {
	rows, err := q.QueryContext(ctx, s.d.rebind(`SELECT domain FROM auth_provider_domains WHERE provider_id = ? ORDER BY domain`), id)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var d string
		if err := rows.Scan(&d); err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, rows.Err()
}

func (s *DB) scanProvider(row scanner) (staff.Provider, error) {
	var p staff.Provider
	var config string
	err := row.Scan(&p.ID, &p.Kind, &p.Name, &p.EntityID, &config, s.d.timeDest(&p.CreatedAt))
	p.Config = json.RawMessage(config)
	return p, err
}

// UpdateProviderConfig implements staff.FederatedStore.
func (s *DB) UpdateProviderConfig(ctx context.Context, id string, config json.RawMessage) error {
	return s.write(ctx, "update provider", func(ctx context.Context, tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, s.d.rebind(`UPDATE auth_providers SET config = ? WHERE id = ?`), string(config), id)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n == 0 {
			return cmp.Or(err, fmt.Errorf("update provider %s: %w", id, staff.ErrNotFound))
		}
		return nil
	})
}

// RemoveProvider implements staff.FederatedStore.
func (s *DB) RemoveProvider(ctx context.Context, id string, audit staff.AuditEntry) (staff.Provider, error) {
	var p staff.Provider
	err := s.write(ctx, "remove provider", func(ctx context.Context, tx *sql.Tx) error {
		var err error
		if p, err = s.scanProvider(tx.QueryRowContext(ctx, s.d.rebind(`SELECT `+providerColumns+` FROM auth_providers WHERE id = ? OR name = ?`), id, id)); err != nil {
			return err
		}
		for _, q := range []string{
			`DELETE FROM auth_identities WHERE provider = ?`,
			`DELETE FROM auth_identity_unlinks WHERE provider = ?`,
			`DELETE FROM auth_flow_states WHERE provider = ?`,
		} {
			if _, err := tx.ExecContext(ctx, s.d.rebind(q), p.Name); err != nil {
				return err
			}
		}
		for _, q := range []string{
			`DELETE FROM auth_provider_domains WHERE provider_id = ?`,
			`DELETE FROM auth_providers WHERE id = ?`,
		} {
			if _, err := tx.ExecContext(ctx, s.d.rebind(q), p.ID); err != nil {
				return err
			}
		}
		return s.audit(ctx, tx, audit)
	})
	if errors.Is(err, sql.ErrNoRows) {
		return p, fmt.Errorf("remove provider %s: %w", id, staff.ErrNotFound)
	}
	return p, err
}

// CreateFlowState implements staff.FederatedStore.
func (s *DB) CreateFlowState(ctx context.Context, f staff.FlowState) error {
	return s.write(ctx, "create flow state", func(ctx context.Context, tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, s.d.rebind(`DELETE FROM auth_flow_states WHERE expires_at < ?`), s.d.timeArg(f.CreatedAt)); err != nil {
			return err
		}
		var link any
		if f.LinkUserID != "" {
			link = f.LinkUserID
		}
		_, err := tx.ExecContext(ctx, s.d.rebind(`INSERT INTO auth_flow_states (state_hash, provider, request_id, provider_verifier,
			redirect_to, code_challenge, code_challenge_method, link_user_id, created_at, expires_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
			f.StateHash, f.Provider, f.RequestID, f.ProviderVerifier, f.RedirectTo, f.CodeChallenge, f.CodeChallengeMethod,
			link, s.d.timeArg(f.CreatedAt), s.d.timeArg(f.ExpiresAt))
		return err
	})
}

// ConsumeFlowState implements staff.FederatedStore.
func (s *DB) ConsumeFlowState(ctx context.Context, stateHash string, now time.Time) (staff.FlowState, error) {
	var f staff.FlowState
	err := s.write(ctx, "consume flow state", func(ctx context.Context, tx *sql.Tx) error {
		var link sql.NullString
		err := tx.QueryRowContext(ctx, s.d.rebind(`DELETE FROM auth_flow_states WHERE state_hash = ?
			RETURNING state_hash, provider, request_id, provider_verifier, redirect_to, code_challenge, code_challenge_method,
			link_user_id, created_at, expires_at`), stateHash).
			Scan(&f.StateHash, &f.Provider, &f.RequestID, &f.ProviderVerifier, &f.RedirectTo, &f.CodeChallenge,
				&f.CodeChallengeMethod, &link, s.d.timeDest(&f.CreatedAt), s.d.timeDest(&f.ExpiresAt))
		f.LinkUserID = link.String
		return err
	})
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return f, staff.ErrNotFound
	case err == nil && !now.Before(f.ExpiresAt):
		return f, staff.ErrFlowStateExpired
	}
	return f, err
}

// UseAssertion implements staff.FederatedStore.
func (s *DB) UseAssertion(ctx context.Context, id string, expires, now time.Time) error {
	var used bool
	err := s.write(ctx, "use SAML assertion", func(ctx context.Context, tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, s.d.rebind(`DELETE FROM auth_saml_assertions WHERE expires_at < ?`), s.d.timeArg(now)); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, s.d.rebind(`INSERT INTO auth_saml_assertions (id, expires_at) VALUES (?, ?) ON CONFLICT DO NOTHING`),
			id, s.d.timeArg(expires))
		if err != nil {
			return err
		}
		n, err := res.RowsAffected()
		used = n == 0
		return err
	})
	if err == nil && used {
		return fmt.Errorf("SAML assertion %s: %w", id, staff.ErrExists)
	}
	return err
}

const identityColumns = `id, user_id, provider, subject, email, identity_data, created_at, updated_at, last_sign_in_at`

func (s *DB) scanIdentity(row scanner) (staff.Identity, error) {
	var id staff.Identity
	var data string
	err := row.Scan(&id.ID, &id.UserID, &id.Provider, &id.Subject, &id.Email, &data,
		s.d.timeDest(&id.CreatedAt), s.d.timeDest(&id.UpdatedAt), nullTimeDest(&id.LastSignInAt))
	if err != nil {
		return id, err
	}
	id.Data, err = decodeMetadata(id.UserID, data)
	return id, err
}

const userIdentitiesQuery = `SELECT ` + identityColumns + ` FROM auth_identities WHERE user_id = ? ORDER BY created_at, id`

// userIdentities returns the federated identities of userID, oldest first.
func (s *DB) userIdentities(ctx context.Context, q queryer, userID string) ([]staff.Identity, error) {
	rows, err := q.QueryContext(ctx, s.d.rebind(userIdentitiesQuery), userID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []staff.Identity
	for rows.Next() {
		id, err := s.scanIdentity(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, id)
	}
	return out, rows.Err()
}

// FindIdentity implements staff.FederatedStore.
func (s *DB) FindIdentity(ctx context.Context, provider, subject string) (staff.Identity, error) {
	var id staff.Identity
	err := s.guard(ctx, "find identity", false, true, func(ctx context.Context) error {
		var err error
		id, err = s.scanIdentity(s.db.QueryRowContext(ctx, s.d.rebind(`SELECT `+identityColumns+` FROM auth_identities
			WHERE provider = ? AND subject = ?`), provider, subject))
		switch {
		case errors.Is(err, sql.ErrNoRows):
			return staff.ErrNotFound
		case err != nil:
			return s.fail("find identity", err)
		}
		return nil
	})
	return id, err
}

// SaveIdentity implements staff.FederatedStore.
func (s *DB) SaveIdentity(ctx context.Context, id staff.Identity, link *staff.Link, audit staff.AuditEntry) error {
	data, err := json.Marshal(nonNilMap(id.Data))
	if err != nil {
		return fmt.Errorf("save identity: %w", err)
	}
	err = s.write(ctx, "save identity", func(ctx context.Context, tx *sql.Tx) error {
		if link == nil {
			return s.signInIdentity(ctx, tx, id, string(data), audit)
		}
		return s.linkIdentity(ctx, tx, id, string(data), *link, audit)
	})
	if err != nil && (errors.Is(err, staff.ErrExists) || fault.KindOf(err) == fault.Conflict) { // another's identity, or the new user's address is staff's already
		return fmt.Errorf("save identity %s: %w", id.Provider, staff.ErrExists)
	}
	if errors.Is(err, staff.ErrNotFound) || errors.Is(err, staff.ErrUnlinked) {
		return fmt.Errorf("save identity %s: %w", id.Provider, err)
	}
	return err
}

// signInIdentity updates the data and sign-in time of the user's identity
// id; staff.ErrNotFound when it is not theirs (any more).
func (s *DB) signInIdentity(ctx context.Context, tx *sql.Tx, id staff.Identity, data string, audit staff.AuditEntry) error {
	res, err := tx.ExecContext(ctx, s.d.rebind(`UPDATE auth_identities SET email = ?, identity_data = ?, updated_at = ?, last_sign_in_at = ?
		WHERE provider = ? AND subject = ? AND user_id = ?`),
		id.Email, data, s.d.timeArg(id.UpdatedAt), s.d.optionalTime(id.LastSignInAt), id.Provider, id.Subject, id.UserID)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return cmp.Or(err, staff.ErrNotFound)
	}
	return s.audit(ctx, tx, audit)
}

// linkIdentity ties the new identity id to its user as link says, adding
// link.NewUser first and queuing link.Mail. An identity the user has
// already (two links at once) is signed in again, and mailed about once.
func (s *DB) linkIdentity(ctx context.Context, tx *sql.Tx, id staff.Identity, data string, link staff.Link, audit staff.AuditEntry) error {
	if link.NewUser != nil {
		if created, err := s.insertUser(ctx, tx, *link.NewUser); err != nil || !created {
			return cmp.Or(err, staff.ErrExists) // the address is staff's already
		}
	}
	if err := s.liftUnlink(ctx, tx, id.UserID, id.Provider, link.ByDomain); err != nil {
		return err
	}
	res, err := tx.ExecContext(ctx, s.d.rebind(`INSERT INTO auth_identities (id, user_id, provider, subject, email, identity_data,
		created_at, updated_at, last_sign_in_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (provider, subject) DO NOTHING`),
		id.ID, id.UserID, id.Provider, id.Subject, id.Email, data, s.d.timeArg(id.CreatedAt), s.d.timeArg(id.UpdatedAt),
		s.d.optionalTime(id.LastSignInAt))
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 { // linked meanwhile: to them, or another's
		if err != nil {
			return err
		}
		err := s.signInIdentity(ctx, tx, id, data, audit)
		if errors.Is(err, staff.ErrNotFound) {
			return staff.ErrExists
		}
		return err
	}
	if link.Mail != nil {
		if err := s.queueMail(ctx, tx, *link.Mail, id.CreatedAt, ""); err != nil {
			return err
		}
	}
	return s.audit(ctx, tx, audit)
}

// liftUnlink forgets that userID unlinked provider, for a link the person
// or staff made; for a link byDomain it instead refuses (auth.ErrUnlinked)
// when they did.
func (s *DB) liftUnlink(ctx context.Context, tx *sql.Tx, userID, provider string, byDomain bool) error {
	if !byDomain {
		_, err := tx.ExecContext(ctx, s.d.rebind(`DELETE FROM auth_identity_unlinks WHERE user_id = ? AND provider = ?`), userID, provider)
		return err
	}
	var one int
	err := tx.QueryRowContext(ctx, s.d.rebind(`SELECT 1 FROM auth_identity_unlinks WHERE user_id = ? AND provider = ?`), userID, provider).Scan(&one)
	if err == nil {
		return staff.ErrUnlinked
	}
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	return err
}

// RemoveIdentity implements staff.FederatedStore.
func (s *DB) RemoveIdentity(ctx context.Context, userID, identityID string, audit staff.AuditEntry) error {
	var found bool
	err := s.write(ctx, "remove identity", func(ctx context.Context, tx *sql.Tx) error {
		var provider string
		err := tx.QueryRowContext(ctx, s.d.rebind(`DELETE FROM auth_identities WHERE id = ? AND user_id = ? RETURNING provider`),
			identityID, userID).Scan(&provider)
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		if err != nil {
			return err
		}
		found = true
		if _, err := tx.ExecContext(ctx, s.d.rebind(`INSERT INTO auth_identity_unlinks (user_id, provider, unlinked_at) VALUES (?, ?, ?)
			ON CONFLICT (user_id, provider) DO UPDATE SET unlinked_at = excluded.unlinked_at`),
			userID, provider, s.d.timeArg(audit.At)); err != nil {
			return err
		}
		return s.audit(ctx, tx, audit)
	})
	if err == nil && !found {
		return fmt.Errorf("remove identity %s: %w", identityID, staff.ErrNotFound)
	}
	return err
}

// AddAudit implements staff.FederatedStore.
func (s *DB) AddAudit(ctx context.Context, e staff.AuditEntry) error {
	return s.write(ctx, "audit", func(ctx context.Context, tx *sql.Tx) error { return s.audit(ctx, tx, e) })
}

// SAMLKey implements staff.FederatedStore.
func (s *DB) SAMLKey(ctx context.Context, candidate staff.SAMLKeyPair) (staff.SAMLKeyPair, error) {
	var k staff.SAMLKeyPair
	err := s.write(ctx, "SAML key", func(ctx context.Context, tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, s.d.rebind(`INSERT INTO auth_saml_keys (id, private_key, certificate, created_at)
			VALUES (1, ?, ?, ?) ON CONFLICT DO NOTHING`), candidate.PrivateKey, candidate.Certificate, s.d.timeArg(candidate.CreatedAt)); err != nil {
			return err
		}
		return tx.QueryRowContext(ctx, `SELECT private_key, certificate, created_at FROM auth_saml_keys WHERE id = 1`).
			Scan(&k.PrivateKey, &k.Certificate, s.d.timeDest(&k.CreatedAt))
	})
	return k, err
}
