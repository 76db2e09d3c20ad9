package engine

import (
	"encoding/base64"
	"encoding/binary"
	"errors"
	"strings"
	"time"
)

// A workflow handle is what a starting action gives the model to pass
// back to the actions that move its instance on (package workflow). The
// model must neither read it, nor alter it, nor use another caller's, nor
// keep one past its time: so a handle is the instance's id sealed with
// AES-256-GCM in a Box of its own (Sealer.Box), dated, with the machine
// and the owner (whom the instance is bound to) as additional data. A
// handle that does not open is refused without asking the store. The
// text is
//
//	wf1.<base64url(nonce | AES-GCM(expires unix milliseconds, 8 bytes big-endian | id))>

// Handles seals and opens workflow handles.
type Handles struct{ box Box }

// NewHandles returns the handles of the app whose sealer is s: replicas
// sharing its keys open each other's.
func NewHandles(s *Sealer) Handles { return Handles{box: s.Box("vurb workflow handle v1")} }

// The refusals of Handles.Open.
var (
	// ErrHandleUnknown: the handle is not one this app sealed for this
	// caller and machine (forged, altered, truncated, another's). It
	// reads as an instance that does not exist.
	ErrHandleUnknown = errors.New("no such workflow instance")
	// ErrHandleExpired: the handle's time is over.
	ErrHandleExpired = errors.New("the workflow instance has expired")
)

const handlePrefix = "wf1."

// MaxHandleID bounds an instance's id, and so the text Open reads.
const MaxHandleID = 128

// maxHandle is the longest handle: the prefix, then the nonce, the
// expiry, the id and GCM's tag in unpadded base64 (4 characters for 3
// bytes, rounded up).
const maxHandle = len(handlePrefix) + ((12+8+MaxHandleID+16)*4+2)/3

// Seal returns the handle of instance id of machine, bound to owner,
// good until expires. The owner is whom the engine binds the instance to,
// in a form that tells kinds apart ("sub:" a verified subject, "session:"
// a session): a subject can then never open a session's handle. An id
// longer than MaxHandleID panics: vurb makes the ids.
func (h Handles) Seal(machine, owner, id string, expires time.Time) string {
	if len(id) > MaxHandleID {
		panic("engine: a workflow instance id longer than MaxHandleID")
	}
	plain := binary.BigEndian.AppendUint64(make([]byte, 0, 8+len(id)), uint64(expires.UnixMilli()))
	plain = append(plain, id...)
	return handlePrefix + base64.RawURLEncoding.EncodeToString(h.box.Seal(nil, plain, handleAD(machine, owner)))
}

// Open returns the instance id text is the handle of, for the caller
// owner of machine at now.
func (h Handles) Open(machine, owner, text string, now time.Time) (string, error) {
	rest, ok := strings.CutPrefix(text, handlePrefix)
	if !ok || len(text) > maxHandle {
		return "", ErrHandleUnknown
	}
	sealed, err := base64.RawURLEncoding.DecodeString(rest)
	if err != nil {
		return "", ErrHandleUnknown
	}
	plain, _, ok := h.box.Open(sealed, handleAD(machine, owner))
	if !ok || len(plain) < 8 {
		return "", ErrHandleUnknown
	}
	if now.UnixMilli() >= int64(binary.BigEndian.Uint64(plain)) {
		return "", ErrHandleExpired
	}
	return string(plain[8:]), nil
}

// handleAD is the additional data of a handle: what it is bound to.
func handleAD(machine, owner string) []byte {
	return []byte("wf1\x00" + machine + "\x00" + owner)
}
