// Package s3 is the storage backend on any S3-compatible service (Amazon
// S3, versitygw, SeaweedFS, Garage, Ceph, R2, …): the blobs of every
// instance in one bucket, so that several instances serve the same files.
//
// The backend is configured by a URL (Open):
//
//	s3://BUCKET[/PREFIX]?endpoint=HOST[:PORT]&region=REGION[&tls=false][&path-style=true]
//
// with the credentials in AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (and
// AWS_SESSION_TOKEN for temporary ones), or in the URL's user and password.
// Uploads stream in parts of PartSize bytes, so that one Put holds about
// one part in memory whatever the blob's size.
package s3

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"

	"studio/internal/fault"
	"studio/internal/files"
)

// PartSize is the size of each part of an upload, S3's smallest: a Put
// holds one part in memory, so it uses about 5 MiB whatever the blob's
// size. S3 allows at most 10,000 parts, so a blob holds at most
// 10,000 × 5 MiB ≈ 48.8 GiB. (minio-go's default for a stream of unknown
// length is a part of over 500 MiB, held in memory.)
const PartSize = 5 << 20

// Backend is a bucket of blobs, each blob the object PREFIX/key. It is
// safe for concurrent use.
type Backend struct {
	client *minio.Client
	bucket string
	prefix string // "" or ending in "/"
}

var _ files.Backend = (*Backend)(nil)

// config is what a storage URL says.
type config struct {
	bucket, prefix string
	endpoint       string
	region         string
	secure         bool
	lookup         minio.BucketLookupType
	creds          *credentials.Credentials
	redacted       string // the URL without its password, for messages
}

// Open returns the backend of rawURL after checking that its bucket exists
// and that the credentials reach it. An unreachable service is an error of
// kind fault.Unavailable. No error tells the secret key.
func Open(ctx context.Context, rawURL string) (*Backend, error) {
	cfg, err := parseURL(rawURL)
	if err != nil {
		return nil, err
	}
	transport, err := minio.DefaultTransport(cfg.secure)
	if err != nil {
		return nil, err
	}
	// An unreachable endpoint fails in seconds, not minio-go's 30 s.
	transport.DialContext = (&net.Dialer{Timeout: 5 * time.Second, KeepAlive: 30 * time.Second}).DialContext
	client, err := minio.New(cfg.endpoint, &minio.Options{
		Creds:        cfg.creds,
		Secure:       cfg.secure,
		Region:       cfg.region,
		BucketLookup: cfg.lookup,
		Transport:    transport,
		// At most three tries of a request, within about a second, not
		// minio-go's ten: while the service is down, requests are
		// answered 503 soon rather than held.
		MaxRetries: 3,
	})
	if err != nil {
		return nil, fmt.Errorf("storage %s: %w", cfg.redacted, err)
	}
	b := &Backend{client: client, bucket: cfg.bucket, prefix: cfg.prefix}
	exists, err := client.BucketExists(ctx, cfg.bucket)
	if err != nil {
		return nil, fmt.Errorf("storage %s: checking the bucket: %w", cfg.redacted, classify(err))
	}
	if !exists {
		return nil, fmt.Errorf("storage %s: the bucket %q does not exist (create it first)", cfg.redacted, cfg.bucket)
	}
	return b, nil
}

// parseURL reads a storage URL (see the package's doc).
func parseURL(rawURL string) (config, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		// url.Parse's error quotes the URL, password included.
		return config{}, errors.New("storage URL: not a URL")
	}
	cfg := config{redacted: u.Redacted(), secure: true, endpoint: "s3.amazonaws.com"}
	bad := func(format string, a ...any) (config, error) {
		return config{}, fmt.Errorf("storage URL %s: "+format, append([]any{cfg.redacted}, a...)...)
	}
	if u.Scheme != "s3" {
		return bad("the scheme is not s3://")
	}
	if u.Host == "" {
		return bad("no bucket (s3://BUCKET/…)")
	}
	cfg.bucket = u.Host
	if p := strings.Trim(u.Path, "/"); p != "" {
		cfg.prefix = p + "/"
	}
	for name, values := range u.Query() {
		v := values[len(values)-1]
		switch name {
		case "endpoint":
			cfg.endpoint = v
		case "region":
			cfg.region = v
		case "tls":
			if v != "true" && v != "false" {
				return bad("tls is true or false")
			}
			cfg.secure = v == "true"
		case "path-style":
			switch v {
			case "true":
				cfg.lookup = minio.BucketLookupPath
			case "false":
				cfg.lookup = minio.BucketLookupDNS
			default:
				return bad("path-style is true or false")
			}
		default:
			return bad("unknown parameter %q (endpoint, region, tls, path-style)", name)
		}
	}
	if cfg.endpoint == "" {
		return bad("an empty endpoint")
	}
	cfg.creds, err = credentialsOf(u)
	if err != nil {
		return bad("%v", err)
	}
	return cfg, nil
}

// credentialsOf are the URL's user and password when it has them, else
// those of the environment.
func credentialsOf(u *url.URL) (*credentials.Credentials, error) {
	if u.User != nil {
		secret, ok := u.User.Password()
		if u.User.Username() == "" || !ok || secret == "" {
			return nil, errors.New("the URL's credentials are not ACCESS_KEY:SECRET_KEY@")
		}
		return credentials.NewStaticV4(u.User.Username(), secret, ""), nil
	}
	access, secret := os.Getenv("AWS_ACCESS_KEY_ID"), os.Getenv("AWS_SECRET_ACCESS_KEY")
	if access == "" || secret == "" {
		return nil, errors.New("no credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY")
	}
	return credentials.NewStaticV4(access, secret, os.Getenv("AWS_SESSION_TOKEN")), nil
}

func (b *Backend) object(key string) string { return b.prefix + key }

// Put implements files.Backend: a multipart upload in parts of PartSize,
// which the service makes the object only when the last part is in; a
// failed or cancelled Put aborts it, leaving nothing under key.
func (b *Backend) Put(ctx context.Context, key string, r io.Reader, contentType string) (int64, error) {
	info, err := b.client.PutObject(ctx, b.bucket, b.object(key), r, -1, minio.PutObjectOptions{
		ContentType: contentType,
		PartSize:    PartSize,
	})
	if err != nil {
		return 0, fmt.Errorf("storage: put %s: %w", key, classify(err))
	}
	return info.Size, nil
}

// Open implements files.Backend: a reader whose every Read after a Seek
// is a ranged GET of the object as it was when opened (If-Match on its
// ETag). Open asks the service for the object's size, so a missing one is
// ErrBlobNotFound here rather than at the first Read.
func (b *Backend) Open(ctx context.Context, key string) (io.ReadSeekCloser, error) {
	obj, err := b.client.GetObject(ctx, b.bucket, b.object(key), minio.GetObjectOptions{})
	if err == nil {
		_, err = obj.Stat()
		if err != nil {
			obj.Close()
		}
	}
	if err != nil {
		return nil, fmt.Errorf("storage: open %s: %w", key, classify(err))
	}
	return readErrors{obj}, nil
}

// Copy implements files.Backend with the service's copy: the bytes do
// not pass through this process. (ComposeObject, not CopyObject: past
// 5 GiB, S3's limit for one copy, it copies in parts.)
func (b *Backend) Copy(ctx context.Context, from, to string) error {
	_, err := b.client.ComposeObject(ctx,
		minio.CopyDestOptions{Bucket: b.bucket, Object: b.object(to)},
		minio.CopySrcOptions{Bucket: b.bucket, Object: b.object(from)})
	if err != nil {
		return fmt.Errorf("storage: copy %s: %w", from, classify(err))
	}
	return nil
}

// Delete implements files.Backend (S3 answers a missing key as deleted).
func (b *Backend) Delete(ctx context.Context, key string) error {
	err := b.client.RemoveObject(ctx, b.bucket, b.object(key), minio.RemoveObjectOptions{})
	if err == nil {
		return nil
	}
	if err = classify(err); errors.Is(err, files.ErrBlobNotFound) {
		return nil
	}
	return fmt.Errorf("storage: delete %s: %w", key, err)
}

// readErrors classifies the errors of an open object's reads (a ranged GET
// fails when the service goes away in the middle of a download).
type readErrors struct{ *minio.Object }

func (r readErrors) Read(p []byte) (int, error) {
	n, err := r.Object.Read(p)
	if err != nil && err != io.EOF {
		err = classify(err)
	}
	return n, err
}

func (r readErrors) Seek(offset int64, whence int) (int64, error) {
	n, err := r.Object.Seek(offset, whence)
	if err != nil {
		err = classify(err)
	}
	return n, err
}

// classify marks err with its kind: a missing object is
// files.ErrBlobNotFound; a service that cannot be reached, times out,
// ends the connection or answers 5xx or "slow down" is fault.Unavailable
// (answered 503 with Retry-After); anything else (refused credentials, a
// missing bucket) is left Internal, for an operator to repair.
func classify(err error) error {
	var resp minio.ErrorResponse
	errors.As(err, &resp)
	switch {
	case resp.Code == minio.NoSuchKey:
		return fmt.Errorf("%w (%w)", files.ErrBlobNotFound, err)
	case resp.StatusCode >= 500, resp.Code == "SlowDown", resp.Code == "RequestTimeout", isNetwork(err):
		return fault.Mark(fault.Unavailable, err)
	}
	return err
}

// isNetwork tells a failure to reach the service or to hear all of its
// answer, or the end of the request's context (as the store counts it).
func isNetwork(err error) bool {
	var netErr net.Error
	return errors.As(err, &netErr) ||
		errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, io.EOF) ||
		errors.Is(err, context.DeadlineExceeded) ||
		errors.Is(err, context.Canceled)
}
