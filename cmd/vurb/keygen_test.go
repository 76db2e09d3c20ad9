package main

import (
	"bytes"
	"context"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/matryer/is"
)

// keygen prints a fresh 32-byte key in hex, a different one each time,
// and takes no arguments.
func TestKeygenPrintsAFreshKey(t *testing.T) {
	is := is.New(t)
	keys := map[string]bool{}
	for range 3 {
		var out, errOut bytes.Buffer
		is.Equal(run(context.Background(), []string{"keygen"}, &out, &errOut), exitOK)
		line := strings.TrimSuffix(out.String(), "\n")
		key, err := hex.DecodeString(line)
		is.NoErr(err)
		is.Equal(len(key), 32)
		keys[line] = true
	}
	is.Equal(len(keys), 3)
	var out, errOut bytes.Buffer
	is.Equal(run(context.Background(), []string{"keygen", "extra"}, &out, &errOut), exitUsage)
}
