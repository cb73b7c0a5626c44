package auth

// TOTPCode is totpCode, for the tests of package auth_test.
var TOTPCode = totpCode
