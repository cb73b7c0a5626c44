package storage_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"studio/internal/files"
	"studio/internal/staff"
	"studio/internal/storage"
	"studio/internal/storage/disk"
	"studio/internal/store/storetest"
)

// staffToken takes the bearer "staff" for a member of staff and refuses
// every other token.
type staffToken struct{}

func (staffToken) Authorize(_ context.Context, token string) (staff.Member, error) {
	if token == "staff" {
		return staff.Member{UserID: "00000000-0000-4000-8000-000000000001", Email: "ada@example.com", AAL: "aal1"}, nil
	}
	return staff.Member{}, staff.TokenRefused("invalid JWT")
}

// TestRoutes: each route answers its methods (GET also HEAD where it
// reads), every other path or method is Fastify's 404 with the path as
// sent, and an object's name is read from the path percent-decoded:
// %2F is a slash, %20 a space, %25 a percent sign, and a name with an
// empty, . or .. segment is refused however it is written. The paths go
// through a mux as the server mounts the service (the public files by
// ServePublic), which redirects a path with literal . or .. segments.
func TestRoutes(t *testing.T) {
	ctx := context.Background()
	db := storetest.Engines()[0].New(t)
	blobs, err := disk.New(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	svc := storage.New(db, blobs, staffToken{}, storage.Config{})
	now := time.Now()
	for _, b := range []files.Bucket{{ID: "pub", Public: true, CreatedAt: now, UpdatedAt: now}, {ID: "priv", CreatedAt: now, UpdatedAt: now}} {
		if err := db.CreateBucket(ctx, b); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range []string{"a b.txt", "dir/x.txt", "50%.txt", "ü?#.txt"} {
		for _, bucket := range []string{"pub", "priv"} {
			if _, err := svc.PutFile(ctx, bucket, name, "text/plain", strings.NewReader("bytes of "+name), false); err != nil {
				t.Fatal(err)
			}
		}
	}
	mux := http.NewServeMux()
	mux.Handle(storage.Prefix+"/", svc)
	svc.MountPublic(mux, func(h http.Handler) http.Handler { return h }) // as the server does

	const route404 = `"statusCode":"404","code":"NotFound","error":"Not Found","message":"Route `
	for _, tt := range []struct {
		name   string
		method string
		path   string // after /storage/v1, as sent
		staff  bool
		body   string
		status int
		want   string // in the body
	}{
		{"public object", "GET", "/object/public/pub/dir/x.txt", false, "", 200, "bytes of dir/x.txt"},
		{"space as %20", "GET", "/object/public/pub/a%20b.txt", false, "", 200, "bytes of a b.txt"},
		{"slash as %2F", "GET", "/object/public/pub/dir%2Fx.txt", false, "", 200, "bytes of dir/x.txt"},
		{"slash as %2F after the bucket", "GET", "/object/public/pub%2Fdir%2Fx.txt", false, "", 200, "bytes of dir/x.txt"},
		{"percent as %25", "GET", "/object/public/pub/50%25.txt", false, "", 200, "bytes of 50%.txt"},
		{"?, # and ü escaped", "GET", "/object/public/pub/%C3%BC%3F%23.txt", false, "", 200, "bytes of ü?#.txt"},
		{"HEAD of a public object", "HEAD", "/object/public/pub/a%20b.txt", false, "", 200, ""},
		{".. as %2E%2E", "GET", "/object/public/pub/%2E%2E/x.txt", false, "", 400, `"code":"InvalidKey","error":"InvalidKey","message":"Invalid key: ../x.txt"`},
		{".. between %2F", "GET", "/object/public/pub/dir%2F..%2Fa%20b.txt", false, "", 400, `"message":"Invalid key: dir/../a b.txt"`},
		{"empty segment as %2F%2F", "GET", "/object/public/pub/dir%2F%2Fx.txt", false, "", 400, `"message":"Invalid key: dir//x.txt"`},
		{"literal .. is redirected by the mux", "GET", "/object/public/pub/dir/../a%20b.txt", false, "", 307, ""},
		{"no name", "GET", "/object/public/pub", false, "", 400, `"message":"Invalid key: "`},
		{"no bucket", "GET", "/object/public/", false, "", 400, `"code":"NoSuchBucket"`},
		{"private bucket on the public route", "GET", "/object/public/priv/a%20b.txt", true, "", 400, `"code":"NoSuchBucket"`},
		{"authenticated, public bucket, anyone", "GET", "/object/authenticated/pub/a%20b.txt", false, "", 200, "bytes of a b.txt"},
		{"authenticated, private bucket, anyone", "GET", "/object/authenticated/priv/a%20b.txt", false, "", 400, `"code":"NoSuchBucket"`},
		{"authenticated, private bucket, staff", "GET", "/object/authenticated/priv/dir%2Fx.txt", true, "", 200, "bytes of dir/x.txt"},
		{"bucket/name without a keyword", "GET", "/object/priv/50%25.txt", true, "", 200, "bytes of 50%.txt"},
		{"HEAD without a keyword", "HEAD", "/object/pub/50%25.txt", false, "", 200, ""},
		{"info", "GET", "/object/info/pub/a%20b.txt", false, "", 200, `"name":"a b.txt"`},
		{"info public", "GET", "/object/info/public/pub/dir%2Fx.txt", false, "", 200, `"name":"dir/x.txt"`},
		{"info authenticated", "GET", "/object/info/authenticated/priv/a%20b.txt", true, "", 200, `"name":"a b.txt"`},
		{"HEAD of info reads the bucket info", "HEAD", "/object/info/pub/a%20b.txt", false, "", 400, ""},
		{"signed download without a token", "GET", "/object/sign/pub/a%20b.txt", false, "", 400, `"code":"InvalidJWT","error":"InvalidJWT","message":"jwt must be provided"`},
		{"signed download, HEAD", "HEAD", "/object/sign/pub/a%20b.txt", false, "", 400, ""},
		{"sign one", "POST", "/object/sign/priv/a%20b.txt", true, `{"expiresIn":60}`, 200, `"signedURL":"/object/sign/priv/a b.txt?token=`},
		{"sign one, %2F", "POST", "/object/sign/priv%2Fdir%2Fx.txt", true, `{"expiresIn":60}`, 200, `"signedURL":"/object/sign/priv/dir/x.txt?token=`},
		{"sign many", "POST", "/object/sign/priv", true, `{"expiresIn":60,"paths":["a b.txt","none"]}`, 200, `"path":"none","signedURL":null`},
		{"sign an upload", "POST", "/object/upload/sign/priv/up%20load.txt", true, "", 200, `"url":"/object/upload/sign/priv/up load.txt?token=`},
		{"upload, anyone", "POST", "/object/priv/new.txt", false, "new", 400, `"code":"AccessDenied"`},
		{"upload with a space", "POST", "/object/priv/new%20one.txt", true, "new", 200, `"Key":"priv/new one.txt"`},
		{"upload, %2F in the name", "POST", "/object/priv/new%2Fin%2Fdir.txt", true, "new", 200, `"Key":"priv/new/in/dir.txt"`},
		{"upload, .. in the name", "POST", "/object/priv/new%2F..%2F..%2Fx.txt", true, "new", 400, `"message":"Invalid key: new/../../x.txt"`},
		{"list without a bucket", "POST", "/object/list", true, "{}", 400, `"code":"NoSuchBucket"`},
		{"replace", "PUT", "/object/priv/new%20one.txt", true, "newer", 200, `"Key":"priv/new one.txt"`},
		{"list, anyone", "POST", "/object/list/priv", false, `{"prefix":""}`, 200, `[]`},
		{"list", "POST", "/object/list/priv", true, `{"prefix":"new"}`, 200, `"name":"in"`},
		{"list, no such bucket", "POST", "/object/list/pr%2Fiv", true, `{}`, 400, `"code":"NoSuchBucket"`},
		{"move", "POST", "/object/move", true, `{"bucketId":"priv","sourceKey":"new one.txt","destinationKey":"moved one.txt"}`, 200, `"message":"Successfully moved"`},
		{"copy", "POST", "/object/copy", true, `{"bucketId":"priv","sourceKey":"moved one.txt","destinationKey":"copied one.txt"}`, 200, `"Key":"priv/copied one.txt"`},
		{"delete one", "DELETE", "/object/priv/moved%20one.txt", true, "", 200, `"message":"Successfully deleted"`},
		{"delete one, %2F", "DELETE", "/object/priv/new%2Fin%2Fdir.txt", true, "", 200, `"message":"Successfully deleted"`},
		{"delete one that is not there", "DELETE", "/object/priv/moved%20one.txt", true, "", 400, `"code":"NoSuchKey"`},
		{"delete many", "DELETE", "/object/priv", true, `{"prefixes":["copied one.txt","none"]}`, 200, `"name":"copied one.txt"`},
		{"delete many, trailing slash", "DELETE", "/object/priv/", true, `{"prefixes":["none"]}`, 200, `[]`},
		// A keyword alone is its route with an empty rest, not a redirect.
		{"public alone", "GET", "/object/public", false, "", 400, `"code":"NoSuchBucket"`},
		{"authenticated alone", "GET", "/object/authenticated", false, "", 400, `"code":"NoSuchBucket"`},
		{"info alone", "GET", "/object/info", false, "", 400, `"code":"NoSuchBucket"`},
		{"HEAD of info alone", "HEAD", "/object/info", false, "", 400, ""},
		{"sign alone", "POST", "/object/sign", true, `{"expiresIn":60,"paths":["x"]}`, 400, `"code":"NoSuchBucket"`},
		{"signed download alone", "GET", "/object/sign", false, "", 400, `"code":"NoSuchBucket"`},
		{"upload sign alone", "POST", "/object/upload/sign", true, "", 400, `"code":"NoSuchBucket"`},
		{"upload sign alone, PUT", "PUT", "/object/upload/sign", false, "", 400, `"code":"NoSuchBucket"`},
		{"POST /object", "POST", "/object", true, "", 404, route404 + `POST:/storage/v1/object not found"`},
		{"%2F after a bucket", "DELETE", "/object/priv%2Fnone", true, "", 400, `"code":"NoSuchKey"`},
		// Paths the string matching once took for routes are Fastify's 404s,
		// or, after an object keyword, a bucket's name.
		{"a bucket with a trailing slash", "GET", "/bucket/priv/", true, "", 404, route404 + `GET:/storage/v1/bucket/priv/ not found"`},
		{"a bucket glued to /bucket", "GET", "/bucketpriv", true, "", 404, route404 + `GET:/storage/v1/bucketpriv not found"`},
		{"empty after %2F", "POST", "/bucket/priv%2Fempty", true, "", 404, route404 + `POST:/storage/v1/bucket/priv/empty not found"`},
		{"move with a trailing slash", "POST", "/object/move/", true, `{"bucketId":"priv","sourceKey":"a b.txt","destinationKey":"b.txt"}`, 400, `"message":"Invalid key: "`},
		{"public%2F", "GET", "/object/public%2Fpub/a%20b.txt", true, "", 400, `"code":"NoSuchBucket"`},
		{"buckets, anyone", "GET", "/bucket", false, "", 200, `[]`},
		{"buckets", "GET", "/bucket", true, "", 200, `"id":"priv"`},
		{"bucket", "GET", "/bucket/priv", true, "", 200, `"id":"priv"`},
		{"bucket, anyone", "GET", "/bucket/priv", false, "", 400, `"code":"NoSuchBucket"`},
		{"create a bucket", "POST", "/bucket", true, `{"name":"made"}`, 200, `{"name":"made"}`},
		{"update a bucket", "PUT", "/bucket/made", true, `{"public":true}`, 200, `"message":"Successfully updated"`},
		{"empty a bucket", "POST", "/bucket/made/empty", true, "", 200, `"message":"Successfully emptied"`},
		{"delete a bucket", "DELETE", "/bucket/made", true, "", 200, `"message":"Successfully deleted"`},
		{"HEAD of the buckets", "HEAD", "/bucket", true, "", 404, ""},
		{"HEAD of a bucket", "HEAD", "/bucket/priv", true, "", 404, ""},
		{"another method on the buckets", "PATCH", "/bucket", true, "", 404, route404 + `PATCH:/storage/v1/bucket not found"`},
		{"another method on a bucket", "POST", "/bucket/priv", true, "", 404, route404 + `POST:/storage/v1/bucket/priv not found"`},
		{"another action on a bucket", "POST", "/bucket/priv/fill", true, "", 404, route404 + `POST:/storage/v1/bucket/priv/fill not found"`},
		{"another method on an object", "PATCH", "/object/pub/a%20b.txt", true, "", 404, route404 + `PATCH:/storage/v1/object/pub/a b.txt not found"`},
		{"move with GET reads the bucket move", "GET", "/object/move", false, "", 400, `"message":"Invalid key: "`},
		{"/object alone", "GET", "/object", false, "", 404, route404 + `GET:/storage/v1/object not found"`},
		{"an unknown path", "GET", "/nothing/here", false, "", 404, route404 + `GET:/storage/v1/nothing/here not found"`},
		{"the root", "GET", "/", false, "", 404, route404 + `GET:/storage/v1/ not found"`},
		{"an unknown path, a token that does not verify", "GET", "/nothing", false, "", 400, `"code":"AccessDenied","error":"Unauthorized","message":"invalid JWT"`},
		{"a preflight from no allowed origin", "OPTIONS", "/nothing", false, "", 400, `"message":"Origin not allowed"`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest(tt.method, storage.Prefix+tt.path, strings.NewReader(tt.body))
			switch {
			case tt.staff:
				r.Header.Set("Authorization", "Bearer staff")
			case strings.HasPrefix(tt.name, "an unknown path, a token"):
				r.Header.Set("Authorization", "Bearer forged")
			}
			if tt.body != "" && strings.HasPrefix(tt.body, "{") {
				r.Header.Set("Content-Type", "application/json")
			}
			w := httptest.NewRecorder()
			mux.ServeHTTP(w, r)
			if w.Code != tt.status || !strings.Contains(w.Body.String(), tt.want) {
				t.Errorf("%s %s = %d %s, want %d with %s", tt.method, tt.path, w.Code, w.Body, tt.status, tt.want)
			}
		})
	}
}
