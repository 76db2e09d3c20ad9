package lane

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"sync"
)

// listCache keeps the go-sdk's tools/list results, one per kind of
// request (handshake-era or 2026-07-28).
type listCache struct {
	sdk     http.Handler
	mu      sync.Mutex
	results map[bool][]byte
}

// get returns the result of a tools/list like r, asking the go-sdk once.
func (c *listCache) get(r *http.Request, newRev bool, body []byte) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if res, ok := c.results[newRev]; ok {
		return res, true
	}
	probe := r.Clone(context.WithoutCancel(r.Context()))
	probe.Body = io.NopCloser(bytes.NewReader(body))
	rec := &recorder{}
	c.sdk.ServeHTTP(rec, probe)
	data := rec.body.Bytes()
	if bytes.HasPrefix(data, []byte("event: message\ndata: ")) {
		data = bytes.TrimSuffix(bytes.TrimPrefix(data, []byte("event: message\ndata: ")), []byte("\n\n"))
	}
	var resp struct {
		Result json.RawMessage `json:"result"`
	}
	if rec.status() != http.StatusOK || json.Unmarshal(data, &resp) != nil || len(resp.Result) == 0 ||
		bytes.Contains(resp.Result, []byte(`"nextCursor"`)) {
		return nil, false
	}
	if c.results == nil {
		c.results = map[bool][]byte{}
	}
	c.results[newRev] = resp.Result
	return resp.Result, true
}
