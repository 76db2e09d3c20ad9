package tasks

import (
	"crypto/rand"
	"encoding/base32"
	"encoding/binary"
	"time"

	"github.com/vurb-go/vurb/internal/engine"
)

// A task id says, to the server that issued it and to the task's owner
// alone, that it issued it and until when the task is kept: 10 random
// bytes, the expiry (unix seconds, 8 bytes), and a tag (engine.Sealer.Tag)
// over both and the owner (the authenticated user who started it, "" for
// none) under the keys that seal request state. So a task the store no
// longer holds is told apart, for its owner: past its expiry it expired;
// before, it was lost (its server stopped, a restart or a crash, and an
// in-memory store kept no record); an id whose tag does not verify was
// never issued with these keys, or not to this caller. Anyone else cannot
// tell an id of another user's task from one never issued: the tag does
// not verify for them (issue #43). With keys of its own (no
// WithRequestStateKeys), a restarted server cannot verify the ids of the
// process before it, and calls them unknown.

var taskIDEncoding = base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)

const taskIDBytes = 10 + 8 + engine.TagBytes

// newTaskID returns the id of a task of owner kept until expires.
func newTaskID(s *engine.Sealer, expires time.Time, owner string) string {
	b := make([]byte, taskIDBytes)
	_, _ = rand.Read(b[:10]) // crypto/rand.Read never fails
	binary.BigEndian.PutUint64(b[10:18], uint64(expires.Unix()))
	copy(b[18:], s.Tag(taskIDTagged(b[:18], owner)))
	return taskIDEncoding.EncodeToString(b)
}

// taskIDExpiry returns when the task id is kept until, and whether this
// server (or one sharing its keys) issued it to owner.
func taskIDExpiry(s *engine.Sealer, id, owner string) (time.Time, bool) {
	if taskIDEncoding.DecodedLen(len(id)) != taskIDBytes {
		return time.Time{}, false
	}
	b, err := taskIDEncoding.DecodeString(id)
	if err != nil || len(b) != taskIDBytes || !s.Verify(taskIDTagged(b[:18], owner), b[18:]) {
		return time.Time{}, false
	}
	return time.Unix(int64(binary.BigEndian.Uint64(b[10:18])), 0), true
}

// taskIDTagged is what an id's tag is over: its random bytes and expiry
// (18 bytes, so the owner that follows cannot shift into them) and the
// owner.
func taskIDTagged(head []byte, owner string) []byte {
	return append(append([]byte("vurb task\x00"), head...), owner...)
}
