package federated

import (
	"context"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"studio/internal/staff"
	"time"
	"unicode/utf8"

	"github.com/crewjam/saml"
	"github.com/crewjam/saml/samlsp"
)

// SAMLConfig is the Config of a SAML provider. Nothing in it is secret.
type SAMLConfig struct {
	MetadataXML string `json:"metadata_xml"`
	// MetadataURL is where MetadataXML was fetched from, "" for a file.
	MetadataURL string `json:"metadata_url,omitempty"`
	// FetchedAt is when MetadataXML was fetched from MetadataURL (zero for
	// a file, and for a provider added before it was kept: its CreatedAt).
	FetchedAt time.Time `json:"fetched_at,omitzero"`
	// NameIDFormat is the NameID format the AuthnRequest asks for; ""
	// asks for persistent, as GoTrue does.
	NameIDFormat string `json:"name_id_format,omitempty"`
}

// Limits of a provider's metadata.
const (
	MaxSAMLMetadataBytes = 1 << 20
	samlMetadataTimeout  = 10 * time.Second
)

// nameIDFormats are the NameID formats an operator may ask for, by their
// short names.
var nameIDFormats = map[string]saml.NameIDFormat{
	"persistent":   saml.PersistentNameIDFormat,
	"emailAddress": saml.EmailAddressNameIDFormat,
	"transient":    saml.TransientNameIDFormat,
	"unspecified":  saml.UnspecifiedNameIDFormat,
}

// NameIDFormat returns the NameID format named by its short name
// (persistent, emailAddress, transient, unspecified) or its URN; "" for "".
func NameIDFormat(name string) (string, error) {
	if name == "" {
		return "", nil
	}
	for short, urn := range nameIDFormats {
		if name == short || name == string(urn) {
			return string(urn), nil
		}
	}
	return "", fmt.Errorf("name id format %q: want persistent, emailAddress, transient or unspecified", name)
}

// NewSAMLProvider returns the SAML provider of the IdP whose metadata is
// metadataXML (fetched from metadataURL, "" for a file), for the e-mail
// domains (SSO domains, and whose people it may add as staff), asking for
// nameIDFormat (NameIDFormat's, "" for persistent).
func NewSAMLProvider(id string, metadataXML []byte, metadataURL string, domains []string, nameIDFormat string, now time.Time) (staff.Provider, error) {
	idp, err := ParseSAMLMetadata(metadataXML)
	if err != nil {
		return staff.Provider{}, err
	}
	var clean []string
	for _, d := range domains {
		d, err := NormalizeDomain(d)
		if err != nil {
			return staff.Provider{}, err
		}
		if !slices.Contains(clean, d) {
			clean = append(clean, d)
		}
	}
	if len(clean) == 0 {
		return staff.Provider{}, errors.New("a SAML provider needs at least one domain")
	}
	settings := SAMLConfig{MetadataXML: string(metadataXML), MetadataURL: metadataURL, NameIDFormat: nameIDFormat}
	if metadataURL != "" {
		settings.FetchedAt = now
	}
	config, err := json.Marshal(settings)
	if err != nil {
		return staff.Provider{}, err
	}
	return staff.Provider{ID: id, Kind: staff.KindSAML, Name: staff.SSOName(id), EntityID: idp.EntityID, Domains: clean, Config: config, CreatedAt: now}, nil
}

// NormalizeDomain returns the e-mail domain d in lower case, or an error
// when it is not a domain name (an address, a URL, an IP address).
func NormalizeDomain(d string) (string, error) {
	d = strings.ToLower(strings.TrimSpace(d))
	if !strings.Contains(d, ".") || net.ParseIP(d) != nil || !ValidHostname(d) {
		return "", fmt.Errorf("%q is not an e-mail domain", d)
	}
	return d, nil
}

// ParseSAMLMetadata reads an IdP's metadata, as GoTrue checks it: one
// entity with one IDPSSODescriptor, and here also an HTTP-Redirect
// SingleSignOnService and a signing certificate, without which no sign-in
// could work.
func ParseSAMLMetadata(raw []byte) (*saml.EntityDescriptor, error) {
	if !utf8.Valid(raw) {
		return nil, errors.New("SAML metadata is not UTF-8")
	}
	idp, err := samlsp.ParseMetadata(raw)
	if err != nil {
		return nil, fmt.Errorf("SAML metadata: %w", err)
	}
	switch {
	case idp.EntityID == "":
		return nil, errors.New("SAML metadata has no entityID")
	case len(idp.IDPSSODescriptors) != 1:
		return nil, fmt.Errorf("SAML metadata has %d IDPSSODescriptors, want one", len(idp.IDPSSODescriptors))
	}
	sp := saml.ServiceProvider{IDPMetadata: idp}
	if sp.GetSSOBindingLocation(saml.HTTPRedirectBinding) == "" {
		return nil, errors.New("SAML metadata has no SingleSignOnService with the HTTP-Redirect binding")
	}
	if !hasSigningCertificate(idp.IDPSSODescriptors[0].KeyDescriptors) {
		return nil, errors.New("SAML metadata has no signing certificate")
	}
	return idp, nil
}

// hasSigningCertificate reports whether one of keys is a certificate that
// may sign (its use is signing, or not given).
func hasSigningCertificate(keys []saml.KeyDescriptor) bool {
	for _, k := range keys {
		if k.Use != "" && k.Use != "signing" {
			continue
		}
		for _, c := range k.KeyInfo.X509Data.X509Certificates {
			der, err := base64.StdEncoding.DecodeString(strings.Join(strings.Fields(c.Data), ""))
			if err != nil {
				continue
			}
			if _, err := x509.ParseCertificate(der); err == nil {
				return true
			}
		}
	}
	return false
}

// CheckMetadataURL parses the URL of an IdP's metadata: https, or http on
// a loopback host (a test, a local IdP).
func CheckMetadataURL(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return nil, fmt.Errorf("metadata URL %q is not a URL", raw)
	}
	if u.Scheme != "https" && !(u.Scheme == "http" && isLoopback(u.Hostname())) {
		return nil, fmt.Errorf("metadata URL %q: must be https (http only on a loopback host)", raw)
	}
	return u, nil
}

func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// FetchSAMLMetadata gets an IdP's metadata from rawURL (CheckMetadataURL's
// rules; a redirect, at most three, stays on https: providerClient),
// within samlMetadataTimeout and at most MaxSAMLMetadataBytes.
func FetchSAMLMetadata(ctx context.Context, rawURL string) ([]byte, error) {
	u, err := CheckMetadataURL(rawURL)
	if err != nil {
		return nil, err
	}
	client := ProviderClient(u.String())
	client.Timeout = samlMetadataTimeout
	client.CheckRedirect = func(r *http.Request, via []*http.Request) error {
		if len(via) >= 3 {
			return errors.New("too many redirects")
		}
		return nil
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/samlmetadata+xml, application/xml, text/xml")
	resp, err := client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("fetch SAML metadata: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("fetch SAML metadata from %s: HTTP %d", u, resp.StatusCode)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, MaxSAMLMetadataBytes+1))
	if err != nil {
		return nil, fmt.Errorf("fetch SAML metadata: %w", err)
	}
	if len(body) > MaxSAMLMetadataBytes {
		return nil, fmt.Errorf("SAML metadata at %s is larger than %d bytes", u, MaxSAMLMetadataBytes)
	}
	return body, nil
}

// SAMLProviderConfig returns the settings and parsed metadata of the SAML
// provider p.
func SAMLProviderConfig(p staff.Provider) (SAMLConfig, *saml.EntityDescriptor, error) {
	var c SAMLConfig
	if err := json.Unmarshal(p.Config, &c); err != nil {
		return c, nil, fmt.Errorf("provider %s: %w", p.Name, err)
	}
	idp, err := ParseSAMLMetadata([]byte(c.MetadataXML))
	if err != nil {
		return c, nil, fmt.Errorf("provider %s: %w", p.Name, err)
	}
	return c, idp, nil
}

// ValidHostname reports whether name is an IP address or a DNS name of
// letters, digits, hyphens and dots (lower case).
func ValidHostname(name string) bool {
	if net.ParseIP(name) != nil {
		return true
	}
	if name == "" || len(name) > 253 {
		return false
	}
	for _, label := range strings.Split(name, ".") {
		if label == "" || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		for _, c := range label {
			if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-') {
				return false
			}
		}
	}
	return true
}
