package engine

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"
)

func testHandles() Handles {
	return NewHandles(NewSealer([][]byte{[]byte("0123456789abcdef0123456789abcdef")}, 0, 0))
}

// TestHandleOpensOnlyForItsOwnerAndMachineInItsTime: a handle opens to
// its instance for the caller and machine it was sealed for, until it
// expires; another caller's, another machine's, an altered, truncated or
// made-up one is unknown, and a key of another deployment opens none.
func TestHandleOpensOnlyForItsOwnerAndMachineInItsTime(t *testing.T) {
	is := is.New(t)
	h := testHandles()
	now := time.Now()
	text := h.Seal("checkout", "alice", "inst-1", now.Add(time.Minute))
	id, err := h.Open("checkout", "alice", text, now)
	is.NoErr(err)
	is.Equal(id, "inst-1")
	is.True(!strings.Contains(text, "inst-1")) // opaque to the model

	refusals := []string{"another caller", "another machine", "altered", "truncated", "made up", "another key", "no prefix", "huge"}
	for _, name := range refusals {
		owner, machine, handle, hs := "alice", "checkout", text, h
		switch name {
		case "another caller":
			owner = "bob"
		case "another machine":
			machine = "approval"
		case "altered":
			b := []byte(text)
			b[len(b)-3] ^= 1
			handle = string(b)
		case "truncated":
			handle = text[:len(text)-4]
		case "made up":
			handle = "wf1.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
		case "another key":
			hs = NewHandles(NewSealer([][]byte{[]byte("fedcba9876543210fedcba9876543210")}, 0, 0))
		case "no prefix":
			handle = strings.TrimPrefix(text, "wf1.")
		case "huge":
			handle = "wf1." + strings.Repeat("A", 1<<20)
		}
		if _, err := hs.Open(machine, owner, handle, now); !errors.Is(err, ErrHandleUnknown) {
			t.Errorf("%s: %v, not refused as unknown", name, err)
		}
	}
	_, err = h.Open("checkout", "alice", text, now.Add(time.Minute))
	is.True(errors.Is(err, ErrHandleExpired))
}

// FuzzHandle holds Open to refusing whatever it was not given by Seal
// (no handle was sealed for an owner the fuzzer names), and to reading
// back exactly what Seal sealed.
func FuzzHandle(f *testing.F) {
	h := testHandles()
	now := time.Now()
	f.Add("wf1.", "alice", "id")
	f.Add(h.Seal("m", "alice", "x", now.Add(time.Hour)), "alice", "x")
	f.Add("wf1.////", "", "")
	f.Fuzz(func(t *testing.T, text, owner, id string) {
		if got, err := h.Open("m", "fuzz:"+owner, text, now); err == nil { // nothing was sealed for a fuzz: owner
			t.Fatalf("a handle the fuzzer made opened to %q", got)
		}
		if len(id) > MaxHandleID {
			return
		}
		sealed := h.Seal("m", owner, id, now.Add(time.Hour))
		got, err := h.Open("m", owner, sealed, now)
		if err != nil || got != id {
			t.Fatalf("sealed %q for %q, opened %q, %v", id, owner, got, err)
		}
		if _, err := h.Open("m", owner+"x", sealed, now); err == nil {
			t.Fatal("another owner opened it")
		}
	})
}
