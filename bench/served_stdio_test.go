package bench

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strconv"
)

// stdioClient is the one client of a stdio server, as a desktop client is:
// it writes one request line to the server's stdin and reads one answer
// line from its stdout, then the next.
type stdioClient struct {
	w    io.Writer
	r    *bufio.Reader
	line []byte
	id   int
}

func newStdioClient(w io.Writer, r io.Reader) *stdioClient {
	return &stdioClient{w: w, r: bufio.NewReaderSize(r, 64<<10)}
}

// handshake is initialize, its answer, then notifications/initialized.
func (c *stdioClient) handshake() error {
	if _, err := io.WriteString(c.w, initializeBody+"\n"); err != nil {
		return err
	}
	answer, err := c.readAnswer()
	if err != nil {
		return err
	}
	if !bytes.Contains(answer, []byte(`"protocolVersion":"`+servedProtocolVersion+`"`)) {
		return fmt.Errorf("initialize: %s", answer)
	}
	_, err = io.WriteString(c.w, initializedBody+"\n")
	return err
}

// roundTrip sends one tools/call and returns the answer line.
func (c *stdioClient) roundTrip() ([]byte, error) {
	c.id++
	c.line = strconv.AppendInt(append(c.line[:0], callPrefix...), int64(c.id), 10)
	c.line = append(append(c.line, callSuffix...), '\n')
	if _, err := c.w.Write(c.line); err != nil {
		return nil, err
	}
	return c.readAnswer()
}

func (c *stdioClient) call() error {
	answer, err := c.roundTrip()
	if err != nil {
		return err
	}
	return checkAnswer(answer)
}

// readAnswer reads lines until one is an answer (it has an id and a result
// or an error), skipping a few notifications a server may send first. The
// line is valid until the next read.
func (c *stdioClient) readAnswer() ([]byte, error) {
	for range 8 {
		line, err := c.r.ReadSlice('\n')
		if err != nil {
			return nil, fmt.Errorf("reading the answer: %v", err)
		}
		if bytes.Contains(line, []byte(`"id":`)) &&
			(bytes.Contains(line, []byte(`"result":`)) || bytes.Contains(line, []byte(`"error":`))) {
			return bytes.TrimSpace(line), nil
		}
	}
	return nil, fmt.Errorf("no answer in 8 lines")
}

// close does nothing: the stdio session lives as long as its process.
func (c *stdioClient) close() error { return nil }
