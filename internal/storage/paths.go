package storage

import (
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxNameBytes bounds an object's name (its path in the bucket).
const MaxNameBytes = 1024

// validName reports whether name may name an object: UTF-8 of at most
// MaxNameBytes, with no control character, and segments between slashes
// that are neither empty nor "." nor "..". Names are otherwise stored as
// given (spaces, any script).
func validName(name string) bool {
	if name == "" || len(name) > MaxNameBytes || !utf8.ValidString(name) {
		return false
	}
	if strings.ContainsFunc(name, unicode.IsControl) {
		return false
	}
	for seg := range strings.SplitSeq(name, "/") {
		if seg == "" || seg == "." || seg == ".." {
			return false
		}
	}
	return true
}

// bucketNamePattern is Supabase's rule for bucket names (S3-safe
// characters, no slash).
var bucketNamePattern = regexp.MustCompile(`^[A-Za-z0-9_!.*'() &$=@;:+,?-]{1,100}$`)

// reservedBucketNames are the words the routes under /object use after it:
// a bucket so named could not be reached.
var reservedBucketNames = []string{"list", "move", "copy", "sign", "upload", "public", "authenticated", "info", ".", ".."}

// validBucketName reports whether id may name a new bucket.
func validBucketName(id string) bool {
	return bucketNamePattern.MatchString(id) && !slices.Contains(reservedBucketNames, id)
}
