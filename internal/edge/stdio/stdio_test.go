package stdio

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strings"
	"sync"
	"testing"

	"github.com/matryer/is"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// lines is an io.Writer that keeps what the transport writes, safe for
// its reader goroutine and the test.
type lines struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *lines) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

// all returns the lines written so far.
func (l *lines) all() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Split(strings.TrimSuffix(l.buf.String(), "\n"), "\n")
}

// connect is the transport's connection over in and out.
func connect(t *testing.T, in io.Reader, out io.Writer, opts ...Option) *stdioConn {
	t.Helper()
	c, err := New(in, out, opts...).Connect(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return c.(*stdioConn)
}

// request returns the call id of a message read from c.
func request(t *testing.T, c *stdioConn) jsonrpc.ID {
	t.Helper()
	m, err := c.Read(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	req, ok := m.(*jsonrpc.Request)
	if !ok || !req.IsCall() {
		t.Fatalf("read %T, want a call", m)
	}
	return req.ID
}

// A line that is not JSON is answered with a JSON-RPC parse error (no
// id) and skipped: the next line is read as usual.
func TestStdioAnswersABadLineAndReadsOn(t *testing.T) {
	is := is.New(t)
	out := &lines{}
	c := connect(t, strings.NewReader("hello\n{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n"), out)

	id := request(t, c) // the line after the bad one
	is.Equal(id.Raw(), int64(1))

	// The bad line was answered before the next was handed over.
	got := out.all()
	is.Equal(len(got), 1)
	var answer struct {
		ID    json.RawMessage `json:"id"`
		Error struct {
			Code int64 `json:"code"`
		} `json:"error"`
	}
	is.NoErr(json.Unmarshal([]byte(got[0]), &answer))
	is.Equal(answer.Error.Code, int64(jsonrpc.CodeParseError))
	is.Equal(len(answer.ID), 0) // the line had no id a client could match
}

// At the in-flight bound, no further request is taken until one is
// answered; its answer lets reading go on.
func TestStdioPausesReadingAtTheInFlightBound(t *testing.T) {
	is := is.New(t)
	pr, pw := io.Pipe()
	t.Cleanup(func() { _ = pw.Close() })
	out := &lines{}
	c := connect(t, pr, out, MaxInFlight(1))

	_, err := pw.Write([]byte(`{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\n"))
	is.NoErr(err)
	first := request(t, c)
	is.Equal(first.Raw(), int64(1))

	// The second request is read off the pipe, yet not taken: its slot
	// is the first's, which is not answered.
	_, err = pw.Write([]byte(`{"jsonrpc":"2.0","id":2,"method":"ping"}` + "\n"))
	is.NoErr(err)
	c.mu.Lock()
	_, second := c.calls[int64(2)]
	is.Equal(len(c.calls), 1) // only the first is in flight
	c.mu.Unlock()
	is.True(!second)
	is.Equal(len(c.slots), 1) // the bound, held by the first

	// Answering the first frees its slot: the second is handed over.
	is.NoErr(c.Write(context.Background(), &jsonrpc.Response{ID: first, Result: json.RawMessage(`{}`)}))
	is.Equal(request(t, c).Raw(), int64(2))
}
