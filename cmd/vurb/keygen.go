package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
)

// keygen prints a new key for vurb.WithRequestStateKeys: 32 bytes from
// crypto/rand, in hex, on one line, for a secret store or an environment
// variable every replica of a server reads (hex.DecodeString turns it back
// into the key).
func keygen(_ context.Context, e *env, pos []string) error {
	if len(pos) != 0 {
		return usagef("keygen takes no arguments")
	}
	key := make([]byte, 32)
	if _, err := rand.Read(key); err != nil {
		return err
	}
	_, err := fmt.Fprintln(e.out, hex.EncodeToString(key))
	return err
}
