package main

import (
	"fmt"
	"os"
)

func mkdirData(dir string) error {
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return fmt.Errorf("data directory: %w", err)
	}
	return nil
}
