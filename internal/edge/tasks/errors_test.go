package tasks

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/vurb-go/vurb/internal/engine"
	"github.com/vurb-go/vurb/store"
)

// TestGoneTaskReadsAsItsIDTellsTheCaller: a task the store no longer
// holds reads as expired or lost to its owner alone; to anyone else, and
// for an id never issued, it reads as not found, in the same words.
func TestGoneTaskReadsAsItsIDTellsTheCaller(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	s := &taskServer{sealer: engine.NewSealer([][]byte{bytes.Repeat([]byte{1}, 32)}, 0, 0), now: func() time.Time { return now }}
	live := newTaskID(s.sealer, now.Add(time.Hour), "alice")
	past := newTaskID(s.sealer, now.Add(-time.Second), "alice")
	anon := newTaskID(s.sealer, now.Add(time.Hour), "")
	for _, c := range []struct {
		name, id, who string
		want          *jsonrpc.Error
	}{
		{"lost, to its owner", live, "alice", taskLost(live)},
		{"expired, to its owner", past, "alice", taskExpired(past)},
		{"lost, to another user", live, "bob", notFound(live)},
		{"expired, to another user", past, "bob", notFound(past)},
		{"lost, to a caller without a token", live, "", notFound(live)},
		{"an anonymous task, lost, to an authenticated user", anon, "alice", notFound(anon)},
		{"an anonymous task, lost, to a caller without a token", anon, "", taskLost(anon)},
		{"never issued", "abcdefghijklmnopqrstuvwxyz234567abcdefghijklm", "alice", notFound("abcdefghijklmnopqrstuvwxyz234567abcdefghijklm")},
	} {
		t.Run(c.name, func(t *testing.T) {
			is := is.New(t)
			is.Equal(s.goneError(c.id, c.who), c.want)
			is.Equal(s.storeError("tasks/get", c.id, c.who, fmt.Errorf("%w: %q", store.ErrTaskNotFound, c.id)), c.want)
		})
	}
}

// TestStoreErrorsReadAsTheClientMayKnow: what each kind of store error
// reads as, and that a failing store's own words go to the log alone.
func TestStoreErrorsReadAsTheClientMayKnow(t *testing.T) {
	var log bytes.Buffer
	s := &taskServer{sealer: engine.NewSealer(nil, 0, 0), now: time.Now, logger: slog.New(slog.NewTextHandler(&log, nil))}
	id := newTaskID(s.sealer, time.Now().Add(time.Hour), "alice")
	own := &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "tasks/update: inputResponses[\"x\"] is not an input response"}
	secret := errors.New("dial tcp redis-secret-host:6379: connection refused")
	for _, c := range []struct {
		name   string
		err    error
		want   *jsonrpc.Error
		logged bool
	}{
		{"another user's", errNotYours, notFound(id), false},
		{"the method's own refusal", own, own, false},
		{"a full store", fmt.Errorf("%w: this caller holds 4 tasks", store.ErrTasksFull),
			&jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "tasks/update: vurb: the task store is full: this caller holds 4 tasks"}, false},
		{"a failing store", fmt.Errorf("redisstate: update task: %w", secret), storeUnavailable(), true},
		{"a failure logged already", &storeFailure{secret}, storeUnavailable(), false},
	} {
		t.Run(c.name, func(t *testing.T) {
			is := is.New(t)
			log.Reset()
			is.Equal(s.storeError("tasks/update", id, "bob", c.err), c.want)
			is.Equal(bytes.Contains(log.Bytes(), []byte("redis-secret-host:6379")), c.logged)
		})
	}
}

// TestStoreFailureReadsAsUnavailableAndUnwraps: a handler given a
// storeFailure (StartTask, SetTaskStatus) passes on only the fixed text,
// as a JSON-RPC internal error, and can still inspect the store's error.
func TestStoreFailureReadsAsUnavailableAndUnwraps(t *testing.T) {
	is := is.New(t)
	cause := fmt.Errorf("redis-secret-host:6379: %w", errors.ErrUnsupported)
	err := fmt.Errorf("building the report: %w", &storeFailure{cause})
	is.Equal(err.Error(), "building the report: "+storeUnavailableText)
	var rpcErr *jsonrpc.Error
	is.True(errors.As(err, &rpcErr))
	is.Equal(rpcErr, storeUnavailable())
	is.True(errors.Is(err, errors.ErrUnsupported))
}
