package bench

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
)

// httpClient is one load-generating client of a streamable HTTP server:
// one keep-alive connection, requests written from pre-serialised bytes
// with a single Write, answers read with http.ReadResponse. The load
// generator shares two cores with the server, so it avoids http.Client,
// whose transport runs two goroutines per connection and builds a Request
// per call; what it does per call is what any HTTP client must do.
type httpClient struct {
	addr    string
	conn    net.Conn
	br      *bufio.Reader
	head    []byte // request line and headers, up to Content-Length
	body    []byte // the JSON-RPC call being sent
	req     []byte // the whole request being written
	answer  bytes.Buffer
	id      int
	session string
	rev2026 bool // requests of revision 2026-07-28: headers and _meta
}

// dialHTTP connects to addr. When stateful, it does the initialize
// handshake once, as a client does before its first call: the answer's
// Mcp-Session-Id goes into every later request, then
// notifications/initialized is sent.
func dialHTTP(addr string, transport string) (*httpClient, error) {
	stateful := transport == "http-stateful"
	c := &httpClient{addr: addr, rev2026: transport == "http-2026"}
	if err := c.connect(); err != nil {
		return nil, err
	}
	c.setHead()
	if !stateful {
		return c, nil
	}
	resp, payload, err := c.post([]byte(initializeBody))
	if err != nil {
		c.conn.Close()
		return nil, fmt.Errorf("initialize: %v", err)
	}
	c.session = resp.Header.Get("Mcp-Session-Id")
	if c.session == "" || !bytes.Contains(payload, []byte(`"protocolVersion":"`+servedProtocolVersion+`"`)) {
		c.conn.Close()
		return nil, fmt.Errorf("initialize: session %q, answer %s", c.session, payload)
	}
	c.setHead()
	if _, _, err := c.post([]byte(initializedBody)); err != nil {
		c.conn.Close()
		return nil, fmt.Errorf("notifications/initialized: %v", err)
	}
	return c, nil
}

func (c *httpClient) connect() error {
	conn, err := net.Dial("tcp", c.addr)
	if err != nil {
		return err
	}
	c.conn, c.br = conn, bufio.NewReaderSize(conn, 16<<10)
	return nil
}

func (c *httpClient) setHead() {
	h := "POST /mcp HTTP/1.1\r\nHost: " + c.addr + "\r\n" +
		"Content-Type: application/json\r\n" +
		"Accept: application/json, text/event-stream\r\n" +
		"Mcp-Protocol-Version: " + servedProtocolVersion + "\r\n"
	if c.rev2026 {
		h = "POST /mcp HTTP/1.1\r\nHost: " + c.addr + "\r\n" +
			"Content-Type: application/json\r\n" +
			"Accept: application/json, text/event-stream\r\n" +
			"Mcp-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/call\r\nMcp-Name: " + peerTool + "\r\n"
	}
	if c.session != "" {
		h += "Mcp-Session-Id: " + c.session + "\r\n"
	}
	c.head = []byte(h)
}

// roundTrip sends one tools/call and returns the JSON-RPC answer.
func (c *httpClient) roundTrip() ([]byte, error) {
	c.id++
	c.body = strconv.AppendInt(append(c.body[:0], callPrefix...), int64(c.id), 10)
	if c.rev2026 {
		c.body = append(c.body, callSuffix2026...)
	} else {
		c.body = append(c.body, callSuffix...)
	}
	_, payload, err := c.post(c.body)
	return payload, err
}

// call is roundTrip with just enough parsing to know the answer is right.
func (c *httpClient) call() error {
	payload, err := c.roundTrip()
	if err != nil {
		return err
	}
	return checkAnswer(payload)
}

// post writes one POST with body and reads the answer. A JSON answer is
// returned whole, an event stream's first data line alone; an empty 202
// (a notification) returns no payload. The buffers are reused, so the
// payload is valid until the next post.
func (c *httpClient) post(body []byte) (*http.Response, []byte, error) {
	c.req = append(c.req[:0], c.head...)
	c.req = append(c.req, "Content-Length: "...)
	c.req = strconv.AppendInt(c.req, int64(len(body)), 10)
	c.req = append(c.req, "\r\n\r\n"...)
	c.req = append(c.req, body...)
	if _, err := c.conn.Write(c.req); err != nil {
		return nil, nil, err
	}
	resp, err := http.ReadResponse(c.br, nil)
	if err != nil {
		return nil, nil, err
	}
	c.answer.Reset()
	_, err = c.answer.ReadFrom(resp.Body)
	resp.Body.Close()
	if err != nil {
		return nil, nil, err
	}
	if resp.Close { // the server will close: open the next connection now
		c.conn.Close()
		if err := c.connect(); err != nil {
			return nil, nil, err
		}
	}
	if resp.StatusCode/100 != 2 {
		return nil, nil, fmt.Errorf("%s: %s", resp.Status, bytes.TrimSpace(c.answer.Bytes()))
	}
	return resp, eventData(c.answer.Bytes()), nil
}

// eventData is the data of an event stream's first event, or b itself
// when b is not an event stream (a JSON answer).
func eventData(b []byte) []byte {
	if len(b) > 0 && b[0] == '{' {
		return b
	}
	for line := range bytes.Lines(b) {
		if data, ok := bytes.CutPrefix(line, []byte("data:")); ok {
			return bytes.TrimSpace(data)
		}
	}
	return b
}

// close ends the session (DELETE, as a client that leaves does) and the
// connection.
func (c *httpClient) close() error {
	defer c.conn.Close()
	if c.session == "" {
		return nil
	}
	req := "DELETE /mcp HTTP/1.1\r\nHost: " + c.addr + "\r\nMcp-Protocol-Version: " + servedProtocolVersion +
		"\r\nMcp-Session-Id: " + c.session + "\r\nContent-Length: 0\r\n\r\n"
	if _, err := io.WriteString(c.conn, req); err != nil {
		return err
	}
	resp, err := http.ReadResponse(c.br, nil)
	if err != nil {
		return err
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("DELETE: %s", resp.Status)
	}
	return nil
}
