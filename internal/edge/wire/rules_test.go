package wire

import (
	"net/http"
	"strings"
	"testing"

	"github.com/matryer/is"
)

// ruleRequest is a well-formed request of revision rev ("" for one of
// the handshake era without the header) with its headers, changed by
// change.
func ruleRequest(rev, body string, change func(h http.Header)) (http.Header, *Message) {
	h := http.Header{}
	h.Set("Content-Type", "application/json")
	h.Set("Accept", "application/json, text/event-stream")
	if rev != "" {
		h.Set(ProtocolVersionHeader, rev)
	}
	if SessionlessRevision(rev) {
		h.Set("Mcp-Method", "tools/call")
		h.Set("Mcp-Name", "notes_find")
	}
	if change != nil {
		change(h)
	}
	return h, &Message{Body: []byte(body), Whole: true}
}

const (
	newBody = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"notes_find","arguments":{},` +
		`"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`
	oldBody = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"notes_find","arguments":{}}}`
)

func TestRequestRulesRefuseInOrder(t *testing.T) {
	rs := NewRequestRules()
	deep := strings.Repeat("[", 1001) + strings.Repeat("]", 1001)
	for _, c := range []struct {
		name, rev, body string
		change          func(h http.Header)
		want            refusal
	}{
		{"new revision", "2026-07-28", newBody, nil, ""},
		{"handshake era", "2025-06-18", oldBody, nil, ""},
		{"no revision header", "", oldBody, nil, ""},
		{"content type", "2026-07-28", newBody, func(h http.Header) { h.Set("Content-Type", "text/plain") }, refusedContentType},
		{"accept", "2026-07-28", newBody, func(h http.Header) { h.Set("Accept", "application/json") }, refusedAccept},
		{"resume", "2025-06-18", oldBody, func(h http.Header) { h.Set("Last-Event-ID", "1") }, refusedResume},
		{"unknown revision", "1999-01-01", oldBody, nil, refusedRevision},
		{"param header", "2026-07-28", newBody, func(h http.Header) { h.Set("Mcp-Param-Region", "eu") }, refusedParamHeader},
		{"batch", "2025-06-18", "[" + oldBody + "]", nil, refusedEnvelope},
		{"notification", "2025-06-18", `{"jsonrpc":"2.0","method":"notifications/initialized"}`, nil, refusedEnvelope},
		{"nesting", "2025-06-18", strings.Replace(oldBody, `{}`, `{"q":`+deep+`}`, 1), nil, refusedNesting},
		{"meta revision", "2026-07-28", strings.Replace(newBody, `"2026-07-28"`, `"2025-11-25"`, 1), nil, refusedMetaRev},
		{"meta revision on a handshake", "2025-06-18", newBody, nil, refusedMetaRev},
		{"method header", "2026-07-28", newBody, func(h http.Header) { h.Set("Mcp-Method", "tools/list") }, refusedMethod},
		{"missing method header", "2026-07-28", newBody, func(h http.Header) { h.Del("Mcp-Method") }, refusedMethod},
		{"method header on a handshake", "2025-06-18", oldBody, func(h http.Header) { h.Set("Mcp-Method", "tools/call") }, refusedMethod},
		{"name header", "2026-07-28", newBody, func(h http.Header) { h.Set("Mcp-Name", "other") }, refusedName},
		{"escaped name", "2026-07-28", strings.Replace(newBody, `"notes_find"`, `"notes\u005ffind"`, 1), nil, refusedName},
		{"name header on a handshake", "2025-06-18", oldBody, func(h http.Header) { h.Set("Mcp-Name", "notes_find") }, refusedName},
	} {
		t.Run(c.name, func(t *testing.T) {
			h, m := ruleRequest(c.rev, c.body, c.change)
			is.New(t).Equal(rs.Check(h, m), c.want)
		})
	}
	is := is.New(t)
	h, _ := ruleRequest("2026-07-28", newBody, nil)
	is.Equal(rs.Check(h, nil), refusedPartial)
	is.Equal(rs.Check(h, &Message{Body: []byte(newBody)}), refusedPartial)
}

// The fast lane runs the rules on every call: they must not allocate.
func TestRequestRulesAllocateNothing(t *testing.T) {
	rs := NewRequestRules()
	h, m := ruleRequest("2026-07-28", newBody, nil)
	m.RPC()
	if n := testing.AllocsPerRun(100, func() { rs.Check(h, m) }); n != 0 {
		t.Fatalf("check allocates %v times", n)
	}
}
