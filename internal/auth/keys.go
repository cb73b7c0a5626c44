package auth

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"studio/internal/secretkey"
	"studio/internal/staff"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/google/uuid"
)

// AlgES256 is the only signing algorithm: ECDSA on P-256 with SHA-256.
const AlgES256 = "ES256"

// NewSigningKey makes a new ES256 signing key, its private key sealed with
// secrets as the store keeps it.
func NewSigningKey(now time.Time, secrets *secretkey.SecretKey) (staff.SigningKey, error) {
	priv, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return staff.SigningKey{}, fmt.Errorf("new signing key: %w", err)
	}
	der, err := x509.MarshalPKCS8PrivateKey(priv)
	if err != nil {
		return staff.SigningKey{}, fmt.Errorf("new signing key: %w", err)
	}
	k := staff.SigningKey{KID: uuid.NewString(), Algorithm: AlgES256, CreatedAt: now.UTC()}
	if k.PrivateKey, err = secrets.Seal(der, signingKeyLabel(k.KID)); err != nil {
		return staff.SigningKey{}, fmt.Errorf("new signing key: %w", err)
	}
	return k, nil
}

// signingKeyLabel binds a sealed signing key to its kid.
func signingKeyLabel(kid string) string { return "signing key " + kid }

// privateKeyDER is the PKCS #8 DER of a stored key: opened with secrets
// when sealed, as stored when a release before --secret-key stored it in
// clear.
func privateKeyDER(sk staff.SigningKey, secrets *secretkey.SecretKey) ([]byte, error) {
	if !secretkey.IsSealed(sk.PrivateKey) {
		return sk.PrivateKey, nil
	}
	return secrets.Open(sk.PrivateKey, signingKeyLabel(sk.KID))
}

// Keys are the signing keys in use: the newest this server can open signs,
// all it can open verify.
type Keys struct {
	signer  signer
	public  map[string]*ecdsa.PublicKey // by kid
	jwks    []byte                      // the JWKS document
	created time.Time                   // of the signer
	// Unsealed are the kids of the keys stored in clear (by a release
	// before --secret-key): "studio keys seal" seals them.
	Unsealed []string
	// Unreadable are the keys this server cannot use (sealed with another
	// secret key, damaged): skipped.
	Unreadable []UnreadableKey
}

// UnreadableKey is a signing key skipped, and why.
type UnreadableKey struct {
	KID string
	Err error
}

type signer struct {
	kid string
	key *ecdsa.PrivateKey
}

// NoSigningKeyError is a store whose signing keys none opens with this
// server's secret key: it can sign nothing. Its message names the keys,
// the secret keys they are sealed with and how to give the right one.
type NoSigningKeyError struct {
	KIDs       []string // the signing keys
	SealedWith []string // the ids of the secret keys they are sealed with
	Ours       string   // this server's secret key's id
}

func (e *NoSigningKeyError) Error() string {
	with := ""
	if len(e.SealedWith) > 0 {
		with = " (sealed with secret key " + strings.Join(e.SealedWith, ", ") + ")"
	}
	return fmt.Sprintf("no signing key opens with secret key %s: signing keys %s%s; give the servers' key with %s",
		e.Ours, strings.Join(e.KIDs, ", "), with, secretkey.KeyFlags)
}

// LoadKeys reads the store's signing keys, opening them with secrets, and
// creates the first one (sealed) when it has none. A key that does not
// open (sealed with another secret key) is skipped (Keys.Unreadable); none
// that opens is a *NoSigningKeyError. A secrets that refuses to seal (not
// the store's key) makes no key.
func LoadKeys(ctx context.Context, st staff.KeyStore, secrets *secretkey.SecretKey, now time.Time) (*Keys, error) {
	candidate, err := NewSigningKey(now, secrets)
	if secretkey.IsKeyMismatch(err) {
		candidate, err = staff.SigningKey{}, nil // read the keys, add none (EnsureSigningKey)
	}
	if err != nil {
		return nil, err
	}
	stored, err := st.EnsureSigningKey(ctx, candidate)
	if err != nil {
		return nil, fmt.Errorf("load signing keys: %w", err)
	}
	if len(stored) == 0 && candidate.KID == "" {
		_, why := NewSigningKey(now, secrets)
		return nil, fmt.Errorf("load signing keys: none, and this server makes none: %w", why)
	}
	return parseKeys(stored, secrets)
}

func parseKeys(stored []staff.SigningKey, secrets *secretkey.SecretKey) (*Keys, error) {
	if len(stored) == 0 {
		return nil, errors.New("load signing keys: none")
	}
	k := &Keys{public: map[string]*ecdsa.PublicKey{}}
	var doc struct {
		Keys []jwk `json:"keys"`
	}
	for _, sk := range stored { // newest first
		priv, err := openSigningKey(sk, secrets)
		if err != nil {
			k.Unreadable = append(k.Unreadable, UnreadableKey{KID: sk.KID, Err: fmt.Errorf("signing key %s: %w", sk.KID, err)})
			continue
		}
		if !secretkey.IsSealed(sk.PrivateKey) {
			k.Unsealed = append(k.Unsealed, sk.KID)
		}
		if k.signer.key == nil {
			k.signer = signer{kid: sk.KID, key: priv}
			k.created = sk.CreatedAt
		}
		k.public[sk.KID] = &priv.PublicKey
		doc.Keys = append(doc.Keys, publicJWK(sk.KID, &priv.PublicKey))
	}
	if k.signer.key == nil {
		e := &NoSigningKeyError{Ours: secrets.ID()}
		for _, sk := range stored {
			e.KIDs = append(e.KIDs, sk.KID)
			if id, ok := secretkey.SealedKeyID(sk.PrivateKey); ok && !slices.Contains(e.SealedWith, id) {
				e.SealedWith = append(e.SealedWith, id)
			}
		}
		return nil, e
	}
	var err error
	if k.jwks, err = json.Marshal(doc); err != nil {
		return nil, err
	}
	return k, nil
}

// openSigningKey is the private key of sk, opened with secrets.
func openSigningKey(sk staff.SigningKey, secrets *secretkey.SecretKey) (*ecdsa.PrivateKey, error) {
	if sk.Algorithm != AlgES256 {
		return nil, fmt.Errorf("algorithm %q, want ES256", sk.Algorithm)
	}
	der, err := privateKeyDER(sk, secrets)
	if err != nil {
		return nil, err
	}
	parsed, err := x509.ParsePKCS8PrivateKey(der)
	if err != nil {
		return nil, err
	}
	priv, ok := parsed.(*ecdsa.PrivateKey)
	if !ok || priv.Curve != elliptic.P256() {
		return nil, errors.New("not a P-256 key")
	}
	return priv, nil
}

// jwk is a public key as a JSON Web Key, in the form WebCrypto imports
// (the client's getClaims verifies with crypto.subtle).
type jwk struct {
	Alg    string   `json:"alg"`
	Crv    string   `json:"crv"`
	Ext    bool     `json:"ext"`
	KeyOps []string `json:"key_ops"`
	KID    string   `json:"kid"`
	Kty    string   `json:"kty"`
	Use    string   `json:"use"`
	X      string   `json:"x"`
	Y      string   `json:"y"`
}

func publicJWK(kid string, pub *ecdsa.PublicKey) jwk {
	// The uncompressed point is 0x04 || X || Y, each 32 bytes. A P-256
	// key always converts.
	e, _ := pub.ECDH()
	point := e.Bytes()
	return jwk{Alg: AlgES256, Crv: "P-256", Ext: true, KeyOps: []string{"verify"}, KID: kid, Kty: "EC", Use: "sig",
		X: base64.RawURLEncoding.EncodeToString(point[1:33]), Y: base64.RawURLEncoding.EncodeToString(point[33:65])}
}

// JWKS is the JSON Web Key Set of the public keys.
func (k *Keys) JWKS() []byte { return k.jwks }

// sign signs claims with the newest key, naming it in the header's kid.
func (k *Keys) sign(claims jwt.Claims) (string, error) {
	t := jwt.NewWithClaims(jwt.SigningMethodES256, claims)
	t.Header["kid"] = k.signer.kid
	return t.SignedString(k.signer.key)
}

// keyFor finds the public key a token names in its kid.
func (k *Keys) keyFor(t *jwt.Token) (any, error) {
	kid, _ := t.Header["kid"].(string)
	if pub, ok := k.public[kid]; ok {
		return pub, nil
	}
	return nil, fmt.Errorf("unrecognized JWT kid %q", kid)
}

// AnonKey is the public key the client is created with
// (createClient(siteOrigin, anonKey)): a JWT of the role anon, as Supabase's
// anon keys are. It grants nothing beyond what a visitor may do; the
// service does not require it.
func (k *Keys) AnonKey() (string, error) {
	return k.sign(jwt.MapClaims{"iss": "studio", "role": "anon", "iat": k.created.Unix()})
}

// KeyRefreshInterval is how often a server reads the signing keys again,
// so that a key added by "studio keys rotate" signs everywhere within it.
const KeyRefreshInterval = 5 * time.Minute

// RotateKeys adds a new signing key, which signs from each server's next
// read of the keys, and removes the old keys that can no longer have
// signed a live token: a key stopped signing at most KeyRefreshInterval
// after its successor was added, and its last tokens expire jwtExpiry
// later. It returns the new key's kid and the removed ones.
func RotateKeys(ctx context.Context, st staff.RotationStore, secrets *secretkey.SecretKey, now time.Time, jwtExpiry time.Duration) (added string, removed []string, err error) {
	k, err := NewSigningKey(now, secrets)
	if err != nil {
		return "", nil, err
	}
	if err := st.AddSigningKey(ctx, k); err != nil {
		return "", nil, fmt.Errorf("rotate keys: %w", err)
	}
	keys, err := st.ListSigningKeys(ctx) // newest first
	if err != nil {
		return k.KID, nil, fmt.Errorf("rotate keys: %w", err)
	}
	for i := 1; i < len(keys); i++ {
		retired := keys[i-1].CreatedAt // when keys[i]'s successor was added
		if now.Sub(retired) > KeyRefreshInterval+jwtExpiry {
			if err := st.DeleteSigningKey(ctx, keys[i].KID); err != nil {
				return k.KID, removed, fmt.Errorf("rotate keys: %w", err)
			}
			removed = append(removed, keys[i].KID)
		}
	}
	return k.KID, removed, nil
}

// SealSigningKeys seals with secrets every signing key the store holds in
// clear; with unseal, it stores every sealed one in clear again instead, for
// a release before --secret-key, which cannot open them. It returns the
// kids it changed. A key sealed with another secret key is an error.
func SealSigningKeys(ctx context.Context, st staff.SealingStore, secrets *secretkey.SecretKey, unseal bool) (changed []string, err error) {
	keys, err := st.ListSigningKeys(ctx)
	if err != nil {
		return nil, fmt.Errorf("seal signing keys: %w", err)
	}
	for _, sk := range keys {
		if secretkey.IsSealed(sk.PrivateKey) != unseal {
			continue // already as asked
		}
		der, err := privateKeyDER(sk, secrets)
		if err != nil {
			return changed, fmt.Errorf("signing key %s: %w", sk.KID, err)
		}
		next := der
		if !unseal {
			if next, err = secrets.Seal(der, signingKeyLabel(sk.KID)); err != nil {
				return changed, err
			}
		}
		ok, err := st.ReplaceSigningKey(ctx, sk.KID, sk.PrivateKey, next)
		if err != nil {
			return changed, fmt.Errorf("signing key %s: %w", sk.KID, err)
		}
		if ok {
			changed = append(changed, sk.KID)
		}
	}
	return changed, nil
}

// DropUnreadableSigningKeys removes the signing keys that do not open with
// secrets, for a store whose secret key was lost: the access tokens they
// signed stop working, the sessions do not (a refresh gets a token signed by
// the key the servers make on their next read). It returns their kids.
func DropUnreadableSigningKeys(ctx context.Context, st staff.RotationStore, secrets *secretkey.SecretKey) (dropped []string, err error) {
	keys, err := st.ListSigningKeys(ctx)
	if err != nil {
		return nil, fmt.Errorf("drop signing keys: %w", err)
	}
	for _, sk := range keys {
		if _, err := privateKeyDER(sk, secrets); err == nil {
			continue
		}
		if err := st.DeleteSigningKey(ctx, sk.KID); err != nil {
			return dropped, fmt.Errorf("drop signing key %s: %w", sk.KID, err)
		}
		dropped = append(dropped, sk.KID)
	}
	return dropped, nil
}
