package federated

import (
	"errors"
	"strings"
	"studio/internal/staff"

	"github.com/crewjam/saml"
)

// SAMLRefusalReason names why crewjam refused a response, for the log.
func SAMLRefusalReason(err error) string {
	for _, c := range []struct {
		kind   error
		reason string
	}{
		{staff.ErrExists, "replayed"},
		{saml.ErrInvalidSignature, "signature"},
		{saml.ErrExpired, "expired"},
		{saml.ErrNotYetValid, "not yet valid"},
		{saml.ErrAudienceMismatch, "audience"},
		{saml.ErrDestinationMismatch, "destination"},
		{saml.ErrRequestIDMismatch, "in response to"},
		{saml.ErrIssuerMismatch, "issuer"},
		{saml.ErrMalformedMessage, "malformed"},
		{saml.ErrMissingElement, "missing element"},
		{saml.ErrUnsupported, "unsupported"},
	} {
		if errors.Is(err, c.kind) {
			return c.reason
		}
	}
	var status saml.ErrBadStatus
	if errors.As(err, &status) {
		return "status " + status.Status
	}
	why := err.Error()
	var invalid *saml.InvalidResponseError
	if errors.As(err, &invalid) && invalid.PrivateErr != nil {
		why = invalid.PrivateErr.Error()
	}
	// crewjam's error for neither the response nor the assertion signed
	// is not exported.
	if strings.Contains(why, "signature element not present") {
		return "unsigned"
	}
	return why
}

// samlSubjectIDAttribute is the SAML subject-id attribute, which names a
// person for good.
const samlSubjectIDAttribute = "urn:oasis:names:tc:SAML:attribute:subject-id"

// samlAttribute returns the values of the assertion's attributes whose Name
// or FriendlyName is name (any case), as GoTrue reads them.
func samlAttribute(a *saml.Assertion, name string) []string {
	var values []string
	for _, stmt := range a.AttributeStatements {
		for _, attr := range stmt.Attributes {
			if strings.EqualFold(attr.Name, name) || strings.EqualFold(attr.FriendlyName, name) {
				for _, v := range attr.Values {
					if v.Value != "" {
						values = append(values, v.Value)
					}
				}
			}
		}
	}
	return values
}

// SAMLSubject returns who the assertion is about, for good, as GoTrue's
// UserID: the subject-id attribute, else the NameID (lower case when an
// address) unless it is transient; "" for none.
func SAMLSubject(a *saml.Assertion) string {
	if v := samlAttribute(a, samlSubjectIDAttribute); len(v) > 0 {
		return v[0]
	}
	if a.Subject == nil || a.Subject.NameID == nil || a.Subject.NameID.Value == "" {
		return ""
	}
	id := a.Subject.NameID
	switch id.Format {
	case string(saml.TransientNameIDFormat):
		return ""
	case string(saml.EmailAddressNameIDFormat):
		return strings.ToLower(strings.TrimSpace(id.Value))
	}
	return id.Value
}

// samlEmailAttributes are the attributes that may carry the address, in
// GoTrue's order.
var samlEmailAttributes = []string{
	"urn:oid:0.9.2342.19200300.100.1.3",
	"http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress",
	"http://schemas.xmlsoap.org/claims/EmailAddress",
	"mail",
	"email",
}

// SAMLEmail returns the person's address: from an e-mail attribute, else
// from an emailAddress NameID; "" for none.
func SAMLEmail(a *saml.Assertion) string {
	for _, name := range samlEmailAttributes {
		if v := samlAttribute(a, name); len(v) > 0 {
			return v[0]
		}
	}
	if a.Subject != nil && a.Subject.NameID != nil && a.Subject.NameID.Format == string(saml.EmailAddressNameIDFormat) {
		return a.Subject.NameID.Value
	}
	return ""
}

// samlNameAttributes are the attributes that may carry the person's name.
var samlNameAttributes = []string{
	"http://schemas.microsoft.com/identity/claims/displayname",
	"urn:oid:2.16.840.1.113730.3.1.241", // displayName
	"displayName",
	"name",
	"urn:oid:2.5.4.3", // cn
	"cn",
}

// SAMLClaims is the identity_data of the assertion's person: GoTrue's
// claims (iss, sub, email, email_verified), name when there is one, and
// every attribute in custom_claims.
func SAMLClaims(a *saml.Assertion, issuer, subject, email string) map[string]any {
	claims := map[string]any{"iss": issuer, "sub": subject, "email": email, "email_verified": true}
	for _, name := range samlNameAttributes {
		if v := samlAttribute(a, name); len(v) > 0 {
			claims["name"] = v[0]
			break
		}
	}
	custom := map[string]any{}
	for _, stmt := range a.AttributeStatements {
		for _, attr := range stmt.Attributes {
			key := attr.Name
			if attr.FriendlyName != "" {
				key = attr.FriendlyName
			}
			values := samlAttribute(a, attr.Name)
			switch len(values) {
			case 0:
			case 1:
				custom[key] = values[0]
			default:
				custom[key] = values
			}
		}
	}
	if len(custom) > 0 {
		claims["custom_claims"] = custom
	}
	return claims
}
