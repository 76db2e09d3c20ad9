// Package stdio is vurb's stdio transport: one JSON-RPC message a line,
// a bad line answered and skipped, reading paused while too many requests
// await their answers. It stands apart from the HTTP edge, which it
// shares nothing with but the in-flight signal and the JSON check.
package stdio

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb/internal/edge/inflight"
	"github.com/vurb-go/vurb/internal/edge/wire"
)

// The go-sdk's stdio transport ends the server on the first line that is
// not a JSON-RPC message (hello, {broken, [], "jsonrpc":"1.0", binary) or
// that passes 16 MiB, with no reply; and it reads on while the answers are
// not read, so 50,000 requests written without reading grew to 49,480
// goroutines and 481 MB. vurb's reads stdin itself, one line a message as
// the MCP stdio transport frames them, answers a bad line with the
// JSON-RPC error it calls for and reads on, skips an oversized line
// without holding it, and stops reading while WithMaxInFlight requests await
// their answers.

// DefaultMaxLineBytes bounds one stdio message: four times the default
// argument limit, so that a call the app accepts always fits
// (vurb.WithMaxLineBytes).
const DefaultMaxLineBytes = 4 << 20

// DefaultMaxInFlight bounds the stdio requests being answered at once
// (vurb.WithMaxInFlight).
const DefaultMaxInFlight = 256

// Option is vurb.Option; see its documentation there.
type Option func(*stdioTransport)

// MaxLineBytes is vurb.WithMaxLineBytes; see its documentation there.
func MaxLineBytes(n int) Option {
	return func(t *stdioTransport) {
		if n > 0 {
			t.maxLine = n
		}
	}
}

// MaxInFlight is vurb.WithMaxInFlight; see its documentation there.
func MaxInFlight(n int) Option {
	return func(t *stdioTransport) {
		if n > 0 {
			t.maxInFlight = n
		}
	}
}

// Standard is vurb.Stdio, over the process's standard input and output;
// see its documentation there.
func Standard(opts ...Option) mcp.Transport {
	return New(os.Stdin, os.Stdout, opts...)
}

// New is Standard over the given streams.
func New(in io.Reader, out io.Writer, opts ...Option) mcp.Transport {
	t := &stdioTransport{in: in, out: out, maxLine: DefaultMaxLineBytes, maxInFlight: DefaultMaxInFlight}
	for _, opt := range opts {
		opt(t)
	}
	return t
}

// stdioTransport is vurb's stdio transport (see Stdio).
type stdioTransport struct {
	in          io.Reader
	out         io.Writer
	maxLine     int
	maxInFlight int
}

// Connect starts reading; it implements mcp.Transport.
func (t *stdioTransport) Connect(context.Context) (mcp.Connection, error) {
	c := &stdioConn{
		t:     t,
		msgs:  make(chan jsonrpc.Message),
		done:  make(chan struct{}),
		ended: make(chan struct{}),
		slots: make(chan struct{}, t.maxInFlight),
		calls: map[any]int{},
	}
	go c.read()
	return c, nil
}

// stdioConn is one stdio session: the reader goroutine hands messages to
// Read; Write answers.
type stdioConn struct {
	t     *stdioTransport
	msgs  chan jsonrpc.Message
	done  chan struct{} // closed by Close
	ended chan struct{} // closed when reading ends; readErr says why
	once  sync.Once

	readErr error

	wmu sync.Mutex // one line at a time on out

	slots chan struct{} // one per request being answered
	mu    sync.Mutex
	calls map[any]int      // the ids being answered (a client may reuse one)
	idle  inflight.Drained // when calls empties
}

// SessionID implements mcp.Connection: stdio has no session id.
func (c *stdioConn) SessionID() string { return "" }

// Read returns the next message.
func (c *stdioConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case m := <-c.msgs:
		return m, nil
	case <-c.ended:
		return nil, c.readErr
	case <-c.done:
		return nil, io.EOF
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// Write writes msg as one line; an answer frees its request's slot.
func (c *stdioConn) Write(_ context.Context, msg jsonrpc.Message) error {
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return err
	}
	err = c.writeLine(data)
	if resp, ok := msg.(*jsonrpc.Response); ok {
		c.answered(resp.ID)
	}
	return err
}

// Close stops the connection; the reader goroutine ends at its next line.
func (c *stdioConn) Close() error {
	var err error
	c.once.Do(func() {
		close(c.done)
		if closer, ok := c.t.out.(io.Closer); ok {
			err = closer.Close()
		}
	})
	return err
}

func (c *stdioConn) writeLine(data []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if _, err := c.t.out.Write(append(data, '\n')); err != nil {
		return err
	}
	return nil
}

// answered frees the slot of the request id, if it holds one.
func (c *stdioConn) answered(id jsonrpc.ID) {
	if !id.IsValid() {
		return
	}
	c.mu.Lock()
	n, ok := c.calls[id.Raw()]
	switch {
	case !ok:
	case n == 1:
		delete(c.calls, id.Raw())
	default:
		c.calls[id.Raw()] = n - 1
	}
	if len(c.calls) == 0 {
		c.idle.Done()
	}
	c.mu.Unlock()
	if ok {
		<-c.slots
	}
}

// read frames stdin into messages until it ends or the connection closes.
func (c *stdioConn) read() {
	defer close(c.ended)
	r := bufio.NewReaderSize(c.t.in, 64<<10)
	var buf []byte
	for {
		line, tooLong, err := readLine(r, c.t.maxLine, buf[:0])
		buf = line
		if tooLong {
			c.refuse(jsonrpc.ID{}, jsonrpc.CodeInvalidRequest,
				fmt.Sprintf("Invalid Request: the message is longer than %d bytes, the server's limit; it was skipped", c.t.maxLine))
		} else if line = bytes.TrimSpace(line); len(line) > 0 && !c.hand(line) {
			c.readErr = io.EOF
			return
		}
		if err != nil {
			if err == io.EOF {
				c.drain() // the requests read are answered before the session ends
			}
			c.readErr = err
			return
		}
		if cap(buf) > 1<<20 {
			buf = nil // a large line's buffer is not kept for the small ones
		}
	}
}

// drain waits until every request read has been answered, or the
// connection closes. A client that writes its requests and closes stdin
// (printf '…' | server) gets every answer, then the server ends.
func (c *stdioConn) drain() {
	c.mu.Lock()
	if len(c.calls) == 0 {
		c.mu.Unlock()
		return
	}
	idle := c.idle.Next()
	c.mu.Unlock()
	select {
	case <-idle:
	case <-c.done:
	}
}

// hand decodes line and hands it to Read, or answers it with an error.
// It reports false when the connection closed meanwhile.
func (c *stdioConn) hand(line []byte) bool {
	if !wire.ValidJSON(line) {
		c.refuse(jsonrpc.ID{}, jsonrpc.CodeParseError, "Parse error: the line is not JSON")
		return true
	}
	msg, err := jsonrpc.DecodeMessage(line)
	if err != nil || line[0] != '{' {
		why := "not a JSON-RPC 2.0 message"
		if line[0] == '[' {
			why = "batches are not supported; send one message a line"
		} else if err != nil {
			why = err.Error()
		}
		c.refuse(probeID(line), jsonrpc.CodeInvalidRequest, "Invalid Request: "+why)
		return true
	}
	if req, ok := msg.(*jsonrpc.Request); ok && req.IsCall() {
		select {
		case c.slots <- struct{}{}: // at the bound, this is where reading stops
		case <-c.done:
			return false
		}
		c.mu.Lock()
		c.calls[req.ID.Raw()]++
		c.mu.Unlock()
	}
	select {
	case c.msgs <- msg:
		return true
	case <-c.done:
		return false
	}
}

// refuse writes an error answer for a line that is not a message.
func (c *stdioConn) refuse(id jsonrpc.ID, code int64, message string) {
	data, err := jsonrpc.EncodeMessage(&jsonrpc.Response{ID: id, Error: &jsonrpc.Error{Code: code, Message: message}})
	if err != nil {
		return
	}
	_ = c.writeLine(data) // a failed write ends the session at its next answer
}

// probeID is the id of a JSON object that is not a valid message, when it
// has one a client can match; the null id otherwise.
func probeID(line []byte) jsonrpc.ID {
	var probe struct {
		ID any `json:"id"`
	}
	if json.Unmarshal(line, &probe) != nil {
		return jsonrpc.ID{}
	}
	id, err := jsonrpc.MakeID(probe.ID)
	if err != nil {
		return jsonrpc.ID{}
	}
	return id
}

// readLine reads up to and without the next '\n' into buf. A line longer
// than max is consumed but not kept: tooLong reports it. err is the
// reader's (io.EOF at the end), with the last line, if any, in line.
func readLine(r *bufio.Reader, max int, buf []byte) (line []byte, tooLong bool, err error) {
	for {
		chunk, err := r.ReadSlice('\n')
		if !tooLong {
			chunk := bytes.TrimSuffix(chunk, []byte("\n"))
			if len(buf)+len(chunk) > max {
				tooLong, buf = true, buf[:0]
			} else {
				buf = append(buf, chunk...)
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return buf, tooLong, err
	}
}
