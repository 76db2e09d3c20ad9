package main

import (
	"bytes"
	"errors"
	"io"
	"net/url"
	"strings"
	"testing"

	"github.com/matryer/is"
)

func TestByteSize(t *testing.T) {
	is := is.New(t)
	for in, want := range map[string]int64{"16MiB": 16 << 20, "512KiB": 512 << 10, "2GiB": 2 << 30, "1MB": 1e6, "1048576": 1 << 20, " 3 KiB ": 3 << 10} {
		var s byteSize
		is.NoErr(s.Set(in))
		is.Equal(int64(s), want)
	}
	for _, bad := range []string{"", "0", "-1MiB", "lots", "1.5MiB", "9999999999GiB"} {
		var s byteSize
		is.True(s.Set(bad) != nil)
	}
	is.Equal(byteSize(16<<20).String(), "16MiB")
	is.Equal(byteSize(1000).String(), "1000 bytes")
}

func TestBudgetReader(t *testing.T) {
	is := is.New(t)
	b := &budget{max: 10}
	data, err := io.ReadAll(b.reader(strings.NewReader("0123456789")))
	is.NoErr(err) // exactly the budget is within it
	is.Equal(string(data), "0123456789")
	b = &budget{max: 10}
	_, err = io.ReadAll(b.reader(strings.NewReader("0123456789A")))
	is.True(errors.As(err, new(tooMuch)))
	is.Equal(err.Error(), "the server sent more than 10 bytes; vurb stopped reading it (-max-bytes raises the bound)")
	is.True(b.exceeded())
	_, err = b.reader(bytes.NewReader(nil)).Read(make([]byte, 1))
	is.True(errors.As(err, new(tooMuch))) // a spent budget reads nothing more
}

func TestSameOrigin(t *testing.T) {
	is := is.New(t)
	origin, _ := url.Parse("https://API.example.com/mcp")
	for raw, want := range map[string]bool{
		"https://api.example.com/other":      true,
		"https://api.example.com:443/mcp":    true,
		"http://api.example.com/mcp":         false, // a downgrade
		"https://api.example.com:8443/mcp":   false,
		"https://evil.example.com/mcp":       false,
		"https://api.example.com.evil.com/x": false,
	} {
		u, _ := url.Parse(raw)
		is.Equal(sameOrigin(u, origin), want)
	}
}
