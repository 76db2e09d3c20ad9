package wire

import (
	"encoding/json"
	"errors"
	"net/http"
	"strconv"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// An encoder writes answers as the go-sdk's stateless handler writes
// them, byte for byte: a tools/call's result or error, any result the
// go-sdk made, framed as JSON or as an event stream of one event. The
// fast lane and the tasks front both answer with one, so what they write
// cannot drift apart; it holds only what encoding needs, made once per
// handler.
type Encoder struct {
	impl *mcp.Implementation
	json bool // WithJSONResponse: application/json instead of an event stream
	// ServerMeta is the _meta of a 2026-07-28 result, encoded once.
	ServerMeta []byte
	headers    answerHeaders
}

// A reply is what an answer needs of the request it answers: its id, and
// whether it is of revision 2026-07-28 or later (per-request _meta, the
// result's type, errors tied to an HTTP status).
type Reply struct {
	ID     jsonrpc.ID
	NewRev bool
}

// NewEncoder returns the encoder of a server that names itself impl and
// answers JSON (asJSON) or event streams.
func NewEncoder(impl *mcp.Implementation, asJSON bool) (Encoder, error) {
	meta, err := json.Marshal(mcp.Meta{mcp.MetaKeyServerInfo: impl})
	if err != nil {
		return Encoder{}, err
	}
	return Encoder{impl: impl, json: asJSON, ServerMeta: meta, headers: newAnswerHeaders()}, nil
}

// Respond writes what a tools/call returned as the go-sdk would.
func (e *Encoder) Respond(w http.ResponseWriter, r *http.Request, to Reply, res *mcp.CallToolResult, err error) {
	if err != nil {
		var rpcErr *jsonrpc.Error
		if !errors.As(err, &rpcErr) {
			if r.Context().Err() != nil {
				return // the client went away: nobody reads an answer
			}
			rpcErr = &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: err.Error()}
		}
		e.WriteError(w, to, rpcErr)
		return
	}
	if res.InputRequests != nil && len(res.Content) > 0 {
		e.WriteError(w, to, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "server bug: result has both content and inputRequests"})
		return
	}
	meta, resultType := []byte(nil), ""
	if to.NewRev {
		meta, resultType = e.ServerMeta, "complete"
		if res.InputRequests != nil {
			resultType = "input_required"
		}
	}
	if len(res.Meta) > 0 {
		// The handler's _meta, with the server's identity for a 2026-07-28
		// client unless the handler named one.
		m := make(mcp.Meta, len(res.Meta)+1)
		for k, v := range res.Meta {
			m[k] = v
		}
		if _, ok := m[mcp.MetaKeyServerInfo]; !ok && to.NewRev {
			m[mcp.MetaKeyServerInfo] = e.impl
		}
		var err error
		if meta, err = json.Marshal(m); err != nil {
			e.WriteError(w, to, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: err.Error()})
			return
		}
	}
	buf, framed := e.frameStart(make([]byte, 0, answerSize(res, meta)), to)
	buf, err = appendCallResult(buf, meta, res, resultType)
	if err != nil {
		e.WriteError(w, to, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: err.Error()})
		return
	}
	if !framed { // a string id: the go-sdk's encoder writes it
		e.Write(w, to, buf)
		return
	}
	e.sendFramed(w, http.StatusOK, e.frameEnd(buf))
}

// answerSize is room enough for the answer of res, most often: the
// framing, _meta, and each text block's text with a margin for escapes.
func answerSize(res *mcp.CallToolResult, meta []byte) int {
	n := 128 + len(meta)
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok && t != nil {
			n += 32 + len(t.Text) + len(t.Text)/8
		} else {
			n += 256
		}
	}
	return n
}

// Write sends a result the way the go-sdk's stateless handler does.
func (e *Encoder) Write(w http.ResponseWriter, to Reply, result []byte) {
	if buf, framed := e.frameStart(make([]byte, 0, len(result)+64), to); framed && len(result) > 0 {
		e.sendFramed(w, http.StatusOK, e.frameEnd(append(buf, result...)))
		return
	}
	data, err := jsonrpc.EncodeMessage(&jsonrpc.Response{ID: to.ID, Result: result})
	if err != nil {
		e.WriteError(w, to, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: err.Error()})
		return
	}
	e.send(w, http.StatusOK, data)
}

// WriteError sends an error response as the go-sdk does: for a 2026-07-28
// request, the codes the spec ties to an HTTP status are sent bare with
// that status; everything else like a result.
func (e *Encoder) WriteError(w http.ResponseWriter, to Reply, rpcErr *jsonrpc.Error) {
	data, err := jsonrpc.EncodeMessage(&jsonrpc.Response{ID: to.ID, Error: rpcErr})
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	if to.NewRev {
		status := 0
		switch rpcErr.Code {
		case jsonrpc.CodeMethodNotFound:
			status = http.StatusNotFound
		case jsonrpc.CodeInvalidParams, mcp.CodeUnsupportedProtocolVersion, mcp.CodeMissingRequiredClientCapabilities:
			status = http.StatusBadRequest
		}
		if status != 0 {
			h := w.Header()
			h.Set("Cache-Control", "no-cache, no-transform")
			if !e.json {
				h.Set("Connection", "keep-alive")
			}
			h.Set("Content-Type", "application/json")
			w.WriteHeader(status)
			w.Write(data)
			return
		}
	}
	e.send(w, http.StatusOK, data)
}

// send frames one message as the go-sdk does: JSON, or an event stream of
// one event.
func (e *Encoder) send(w http.ResponseWriter, status int, data []byte) {
	if !e.json {
		buf := make([]byte, 0, len(sseEvent)+len(data)+2)
		data = append(append(append(buf, sseEvent...), data...), "\n\n"...)
	}
	e.sendFramed(w, status, data)
}

// sseEvent opens the one event of an event-stream answer.
const sseEvent = "event: message\ndata: "

// frameStart begins, in buf, the answer to a request (to) as the go-sdk frames a
// result: the event's opening unless the lane answers JSON, then the
// response envelope up to its result, written as jsonrpc.EncodeMessage
// writes it (members in its order, no HTML escaping, an integer id as a
// JSON number). A string id is left to EncodeMessage (framed is false):
// it is rare and its escaping is the encoder's. What follows must be
// compact JSON, as EncodeMessage compacts a result, and frameEnd closes
// it.
func (e *Encoder) frameStart(buf []byte, to Reply) (_ []byte, framed bool) {
	id, ok := to.ID.Raw().(int64)
	if !ok {
		return buf, false
	}
	if !e.json {
		buf = append(buf, sseEvent...)
	}
	buf = append(buf, `{"jsonrpc":"2.0","id":`...)
	buf = strconv.AppendInt(buf, id, 10)
	return append(buf, `,"result":`...), true
}

// frameEnd closes what frameStart began.
func (e *Encoder) frameEnd(buf []byte) []byte {
	buf = append(buf, '}')
	if !e.json {
		buf = append(buf, "\n\n"...)
	}
	return buf
}

// sendFramed sends an answer framed as the lane answers (by send, or by
// frameStart and frameEnd), with the go-sdk's headers. The header values
// are the lane's own, made once: net/http copies them when the header is
// written.
func (e *Encoder) sendFramed(w http.ResponseWriter, status int, framed []byte) {
	h := w.Header()
	h["Cache-Control"] = e.headers.cacheControl
	if e.json {
		h["Content-Type"] = e.headers.json
	} else {
		h["Content-Type"] = e.headers.stream
		h["Connection"] = e.headers.keepAlive
	}
	w.WriteHeader(status)
	w.Write(framed)
}

// answerHeaders are the values of the headers every answer carries, made
// once per lane rather than per answer.
type answerHeaders struct {
	cacheControl, json, stream, keepAlive []string
}

func newAnswerHeaders() answerHeaders {
	return answerHeaders{cacheControl: []string{"no-cache, no-transform"}, json: []string{"application/json"},
		stream: []string{"text/event-stream"}, keepAlive: []string{"keep-alive"}}
}

// HeaderMismatch answers as the go-sdk does when routing headers disagree
// with the body: -32020, HTTP 400, a bare JSON body.
func (e *Encoder) HeaderMismatch(w http.ResponseWriter, to Reply, message string) {
	data, err := jsonrpc.EncodeMessage(&jsonrpc.Response{ID: to.ID, Error: &jsonrpc.Error{Code: mcp.CodeHeaderMismatch, Message: message}})
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusBadRequest)
	w.Write(data)
}
