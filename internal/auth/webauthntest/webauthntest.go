// Package webauthntest is a software passkey for tests: an authenticator
// with one ES256 credential that answers the options of a WebAuthn create
// or request ceremony with the JSON a browser's PublicKeyCredential.toJSON()
// gives (attestation "none"), so that a test can play the browser's part.
// Each field can be changed between ceremonies to make a bad answer (another
// origin, relying party id or counter).
package webauthntest

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"net/url"

	"github.com/go-webauthn/webauthn/protocol/webauthncbor"
)

// Authenticator is one software authenticator holding one credential.
type Authenticator struct {
	Key          *ecdsa.PrivateKey
	CredentialID []byte
	AAGUID       [16]byte
	// Counter is the signature counter: each ceremony adds one, then
	// writes it.
	Counter uint32
	// Origin is what the client data says the page's origin is; RPID the
	// relying party id whose hash the authenticator data holds.
	Origin, RPID string
	// UserHandle is the user id of the registration, given back with each
	// assertion.
	UserHandle []byte
}

// New is an authenticator for pages of origin (the relying party id is its
// host name).
func New(origin string) (*Authenticator, error) {
	u, err := url.Parse(origin)
	if err != nil {
		return nil, err
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	a := &Authenticator{Key: key, CredentialID: make([]byte, 32), Origin: origin, RPID: u.Hostname()}
	copy(a.AAGUID[:], "studio test auth")
	_, err = rand.Read(a.CredentialID)
	return a, err
}

var b64 = base64.RawURLEncoding

// options is what the ceremonies read of the options sent to the browser.
type options struct {
	PublicKey struct {
		Challenge string `json:"challenge"`
		User      struct {
			ID string `json:"id"`
		} `json:"user"`
	} `json:"publicKey"`
}

func readOptions(raw []byte) (options, error) {
	var o options
	if err := json.Unmarshal(raw, &o); err != nil {
		return o, err
	}
	if o.PublicKey.Challenge == "" {
		return o, fmt.Errorf("options without a challenge: %s", raw)
	}
	return o, nil
}

// Create answers the options of a create ceremony ({publicKey: …}) with a
// registration of its credential.
func (a *Authenticator) Create(raw []byte) (json.RawMessage, error) {
	o, err := readOptions(raw)
	if err != nil {
		return nil, err
	}
	if a.UserHandle, err = b64.DecodeString(o.PublicKey.User.ID); err != nil {
		return nil, err
	}
	clientData := a.clientData("webauthn.create", o.PublicKey.Challenge)
	authData := a.authData(0x45) // user present, user verified, attested credential data
	authData = append(authData, a.AAGUID[:]...)
	authData = binary.BigEndian.AppendUint16(authData, uint16(len(a.CredentialID)))
	authData = append(authData, a.CredentialID...)
	coseKey, err := webauthncbor.Marshal(map[int]any{1: 2, 3: -7, -1: 1,
		-2: a.Key.PublicKey.X.FillBytes(make([]byte, 32)), -3: a.Key.PublicKey.Y.FillBytes(make([]byte, 32))})
	if err != nil {
		return nil, err
	}
	authData = append(authData, coseKey...)
	attestation, err := webauthncbor.Marshal(map[string]any{"fmt": "none", "attStmt": map[string]any{}, "authData": authData})
	if err != nil {
		return nil, err
	}
	return a.credential(map[string]any{"clientDataJSON": b64.EncodeToString(clientData),
		"attestationObject": b64.EncodeToString(attestation), "transports": []string{"internal"}})
}

// Get answers the options of a request ceremony ({publicKey: …}) with an
// assertion signed by the credential.
func (a *Authenticator) Get(raw []byte) (json.RawMessage, error) {
	o, err := readOptions(raw)
	if err != nil {
		return nil, err
	}
	clientData := a.clientData("webauthn.get", o.PublicKey.Challenge)
	authData := a.authData(0x05) // user present, user verified
	hash := sha256.Sum256(clientData)
	digest := sha256.Sum256(append(authData, hash[:]...))
	sig, err := ecdsa.SignASN1(rand.Reader, a.Key, digest[:])
	if err != nil {
		return nil, err
	}
	return a.credential(map[string]any{"clientDataJSON": b64.EncodeToString(clientData),
		"authenticatorData": b64.EncodeToString(authData), "signature": b64.EncodeToString(sig),
		"userHandle": b64.EncodeToString(a.UserHandle)})
}

func (a *Authenticator) clientData(typ, challenge string) []byte {
	b, _ := json.Marshal(map[string]any{"type": typ, "challenge": challenge, "origin": a.Origin, "crossOrigin": false})
	return b
}

// authData is the authenticator data's start: the relying party id's hash,
// flags and the counter, one up.
func (a *Authenticator) authData(flags byte) []byte {
	a.Counter++
	rpHash := sha256.Sum256([]byte(a.RPID))
	return binary.BigEndian.AppendUint32(append(rpHash[:], flags), a.Counter)
}

func (a *Authenticator) credential(response map[string]any) (json.RawMessage, error) {
	id := b64.EncodeToString(a.CredentialID)
	return json.Marshal(map[string]any{"id": id, "rawId": id, "type": "public-key", "response": response,
		"clientExtensionResults": map[string]any{}, "authenticatorAttachment": "platform"})
}
