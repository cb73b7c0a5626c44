package auth

// TOTPCode is totpCode, for the tests of package auth_test.
var TOTPCode = totpCode

// SAMLMetadataStale is samlMetadataStale, for the tests of package auth_test.
var SAMLMetadataStale = samlMetadataStale
