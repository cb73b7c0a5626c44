package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path"
	"strconv"
	"strings"
	"time"

	"studio/internal/site"
	"studio/internal/storage"
	"studio/internal/store"
)

// The storage commands work on the files of /storage/v1 (package storage)
// in the same store and backend as the server: bucket/path names, the
// bucket's rules, one new blob per upload.

// filesFlags binds the flags every storage command needs: the store's and
// --storage-url.
func filesFlags(fs *flag.FlagSet, env func(string) string) (*store.Config, *string) {
	cfg := storeFlags(fs, env)
	var storageURL string
	envString(fs, &storageURL, "storage-url", "STUDIO_STORAGE_URL", "", "where the bytes of files are: empty for the directory storage in --data, or s3://BUCKET?endpoint=…&region=…", env)
	return cfg, &storageURL
}

// withFiles opens the store and the backend and runs f on the files
// service over them.
func withFiles(ctx context.Context, cfg store.Config, storageURL string, f func(*storage.Service) error) error {
	return withStore(ctx, cfg, func(db *store.DB) error {
		blobs, err := openBackend(ctx, storageURL, cfg.DataDir)
		if err != nil {
			return fmt.Errorf("--storage-url: %w", err)
		}
		return f(storage.New(db, blobs, nil, storage.Config{}))
	})
}

// bucketPath splits "bucket/path/in/it" (the path may be empty when
// allowed).
func bucketPath(arg string, needPath bool) (bucket, name string, err error) {
	bucket, name, _ = strings.Cut(arg, "/")
	if bucket == "" || (needPath && name == "") {
		return "", "", fmt.Errorf("%q: want BUCKET/PATH", arg)
	}
	return bucket, name, nil
}

var storageLsCommand = command{
	name:    "storage ls",
	summary: "list the buckets, or the files in a bucket's folder",
	description: "studio storage ls [BUCKET[/FOLDER/]]\n\n" +
		"Without an argument, prints every bucket (public or private). With one, prints the folders and\n" +
		"files directly in it: name, size, type and when it was last changed.",
	setup: func(fs *flag.FlagSet, env func(string) string) action {
		cfg, storageURL := filesFlags(fs, env)
		var format string
		formatFlag(fs, &format)
		return func(ctx context.Context, fs *flag.FlagSet, stdout, stderr io.Writer) error {
			if fs.NArg() > 1 {
				fmt.Fprintf(stderr, "%s: one BUCKET[/FOLDER/] at most\n", fs.Name())
				return errUsage
			}
			if err := checkFormat(format, stderr); err != nil {
				return err
			}
			return withFiles(ctx, *cfg, *storageURL, func(files *storage.Service) error {
				var t table
				var err error
				if fs.NArg() == 0 {
					t, err = bucketTable(ctx, files)
				} else {
					t, err = fileTable(ctx, files, fs.Arg(0))
				}
				if err != nil {
					return err
				}
				return t.write(stdout, format)
			})
		}
	},
}

func bucketTable(ctx context.Context, files *storage.Service) (table, error) {
	buckets, err := files.Buckets(ctx)
	type record struct {
		ID     string `json:"id"`
		Public bool   `json:"public"`
	}
	t := table{header: []string{"bucket", "public"}}
	var records []record
	for _, b := range buckets {
		t.rows = append(t.rows, []string{b.ID, strconv.FormatBool(b.Public)})
		records = append(records, record{b.ID, b.Public})
	}
	t.records = records
	return t, err
}

func fileTable(ctx context.Context, files *storage.Service, arg string) (table, error) {
	bucket, prefix, err := bucketPath(arg, false)
	if err != nil {
		return table{}, err
	}
	if prefix != "" && !strings.HasSuffix(prefix, "/") {
		prefix += "/"
	}
	entries, err := files.ListFiles(ctx, bucket, prefix)
	type record struct {
		Name        string     `json:"name"`
		Size        *int64     `json:"size"`
		ContentType string     `json:"content_type,omitempty"`
		UpdatedAt   *time.Time `json:"updated_at"`
	}
	t := table{header: []string{"name", "size", "type", "updated"}}
	records := []record{}
	for _, e := range entries {
		if e.Object == nil {
			t.rows = append(t.rows, []string{e.Name + "/", "", "", ""})
			records = append(records, record{Name: e.Name + "/"})
			continue
		}
		o := e.Object
		t.rows = append(t.rows, []string{e.Name, strconv.FormatInt(o.Size, 10), o.ContentType, o.UpdatedAt.UTC().Format(time.RFC3339)})
		records = append(records, record{e.Name, &o.Size, o.ContentType, &o.UpdatedAt})
	}
	t.records = records
	return t, err
}

var storagePutCommand = command{
	name:    "storage put",
	summary: "store a file in a bucket",
	description: "studio storage put BUCKET/PATH FILE [--type TYPE] [--upsert]\n\n" +
		"Stores FILE (\"-\" for standard input) as BUCKET/PATH, under the bucket's size limit and types.\n" +
		"An existing file of that name is replaced only with --upsert. The type is --type, else the one of\n" +
		"the file's extension.",
	setup: func(fs *flag.FlagSet, env func(string) string) action {
		cfg, storageURL := filesFlags(fs, env)
		contentType := fs.String("type", "", "the file's content type (default: by its extension)")
		upsert := fs.Bool("upsert", false, "replace a file of that name")
		return func(ctx context.Context, fs *flag.FlagSet, stdout, stderr io.Writer) error {
			if fs.NArg() != 2 {
				fmt.Fprintf(stderr, "%s: want BUCKET/PATH FILE\n", fs.Name())
				return errUsage
			}
			bucket, name, err := bucketPath(fs.Arg(0), true)
			if err != nil {
				return err
			}
			in := io.Reader(os.Stdin)
			if fs.Arg(1) != "-" {
				f, err := os.Open(fs.Arg(1))
				if err != nil {
					return err
				}
				defer f.Close()
				in = f
			}
			if *contentType == "" {
				*contentType = site.ContentType(path.Base(name))
			}
			return withFiles(ctx, *cfg, *storageURL, func(files *storage.Service) error {
				o, err := files.PutFile(ctx, bucket, name, *contentType, in, *upsert)
				if err != nil {
					return err
				}
				fmt.Fprintf(stdout, "stored %s/%s (%d bytes, %s)\n", bucket, name, o.Size, o.ContentType)
				return nil
			})
		}
	},
}

var storageGetCommand = command{
	name:    "storage get",
	summary: "write a file of a bucket to a file or standard output",
	description: "studio storage get BUCKET/PATH [--out FILE]\n\n" +
		"Writes the bytes of BUCKET/PATH to --out (which must not exist), or to standard output.",
	setup: func(fs *flag.FlagSet, env func(string) string) action {
		cfg, storageURL := filesFlags(fs, env)
		out := fs.String("out", "", "the file to write (must not exist); empty: standard output")
		return func(ctx context.Context, fs *flag.FlagSet, stdout, stderr io.Writer) error {
			if fs.NArg() != 1 {
				fmt.Fprintf(stderr, "%s: want BUCKET/PATH\n", fs.Name())
				return errUsage
			}
			bucket, name, err := bucketPath(fs.Arg(0), true)
			if err != nil {
				return err
			}
			return withFiles(ctx, *cfg, *storageURL, func(files *storage.Service) error {
				_, r, err := files.OpenFile(ctx, bucket, name)
				if err != nil {
					return err
				}
				defer r.Close()
				w := stdout
				if *out != "" {
					f, err := os.OpenFile(*out, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
					if err != nil {
						return err
					}
					defer f.Close()
					w = f
				}
				_, err = io.Copy(w, r)
				return err
			})
		}
	},
}

var storageRmCommand = command{
	name:        "storage rm",
	summary:     "remove files from a bucket",
	description: "studio storage rm BUCKET/PATH...\n\nRemoves the files named, all of one bucket.",
	setup: func(fs *flag.FlagSet, env func(string) string) action {
		cfg, storageURL := filesFlags(fs, env)
		return func(ctx context.Context, fs *flag.FlagSet, stdout, stderr io.Writer) error {
			if fs.NArg() == 0 {
				fmt.Fprintf(stderr, "%s: want BUCKET/PATH...\n", fs.Name())
				return errUsage
			}
			var bucket string
			var names []string
			for _, arg := range fs.Args() {
				b, name, err := bucketPath(arg, true)
				if err != nil {
					return err
				}
				if bucket != "" && b != bucket {
					return fmt.Errorf("%q: every file must be of the bucket %s", arg, bucket)
				}
				bucket, names = b, append(names, name)
			}
			return withFiles(ctx, *cfg, *storageURL, func(files *storage.Service) error {
				removed, err := files.RemoveFiles(ctx, bucket, names)
				if err != nil {
					return err
				}
				for _, o := range removed {
					fmt.Fprintf(stdout, "removed %s/%s\n", bucket, o.Name)
				}
				if len(removed) < len(names) {
					return fmt.Errorf("%d of %d files were not there", len(names)-len(removed), len(names))
				}
				return nil
			})
		}
	},
}
