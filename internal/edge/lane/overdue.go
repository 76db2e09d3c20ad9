package lane

import (
	"net/http"
	"strconv"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb/internal/engine"
)

// The lanes run a call's handler on the request's own goroutine (see the
// engine's watched.go): when the call's deadline (or the shutdown's cut)
// comes first, the engine's watch answers from its own goroutine while
// the handler holds the request's. That answer is the one the call would
// have given; it goes out whole, with its length, at once, and the
// connection closes behind it (HTTP/1), since the handler holds it until
// it returns: the client's next request goes on another.

// laneCall is one call the lane runs: its origin, and what answering it
// late takes, in one allocation; it is the origin's Answerer.
type laneCall struct {
	o   engine.Origin
	l   *Lane
	w   http.ResponseWriter
	r   *http.Request
	req laneRequest
}

// newCall returns the call of req with origin o, answered on w.
func (l *Lane) newCall(o engine.Origin, w http.ResponseWriter, r *http.Request, req laneRequest) *laneCall {
	c := &laneCall{o: o, l: l, w: w, r: r, req: req}
	c.o.Answerer = c
	return c
}

// AnswerLate answers the call when its deadline or the cut came first:
// respond writes into a recorder over w's header, so that the answer goes
// out whole, with its length.
func (c *laneCall) AnswerLate(res *mcp.CallToolResult, err error) {
	w := c.w
	held := recorder{header: w.Header()}
	c.l.Respond(&held, c.r, c.req.Reply, res, err)
	if held.code == 0 && held.body.Len() == 0 {
		return // the client went away: nobody reads an answer
	}
	h := w.Header()
	h.Set("Content-Length", strconv.Itoa(held.body.Len()))
	if c.r.ProtoMajor == 1 {
		h.Set("Connection", "close")
	}
	w.WriteHeader(held.status())
	w.Write(held.body.Bytes())
	http.NewResponseController(w).Flush()
}
