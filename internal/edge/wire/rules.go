package wire

import (
	"bytes"
	"mime"
	"net/http"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb/internal/engine"
)

// The request rules. A front vurb answers itself (the fast lane, the
// session lane, the tasks front) takes a request only when it keeps every
// rule below; whatever breaks one goes to the go-sdk as it came, which
// refuses it in its own words or serves it. The fronts once each kept
// their own list, and the tasks front's lacked two rules: a message nested
// deeper than the go-sdk reads started a task the go-sdk would have
// refused. One list, applied by every front in the same order, keeps the
// paths alike; what is left to a front is only what it serves (which
// revisions, which tools).

// A refusal names the rule a request broke, in the words tests assert;
// the empty refusal is a request that keeps them all.
type refusal string

// The refusals, in the order the rules are applied.
const (
	refusedPartial     refusal = "the body was not read whole, within the bound"
	refusedContentType refusal = "the Content-Type is not application/json"
	refusedAccept      refusal = "Accept does not list both application/json and text/event-stream"
	refusedResume      refusal = "a Last-Event-ID resumes a stream, which is the go-sdk's"
	refusedRevision    refusal = "the Mcp-Protocol-Version header names no revision the go-sdk speaks"
	refusedParamHeader refusal = "an Mcp-Param- header: the go-sdk holds it to the arguments"
	refusedEnvelope    refusal = "the body is not one plain JSON-RPC request"
	refusedNesting     refusal = "the message nests deeper than the go-sdk reads"
	refusedMetaRev     refusal = "the _meta revision disagrees with the Mcp-Protocol-Version header"
	refusedMethod      refusal = "the Mcp-Method header disagrees with the body's method"
	refusedName        refusal = "the Mcp-Name header disagrees with the body's name"
)

// RequestRules is the one list of request rules; its value is the
// handshake-era revisions the go-sdk negotiates, read once.
type RequestRules struct {
	handshake []string
}

// NewRequestRules returns the rules of the go-sdk vurb serves behind.
func NewRequestRules() RequestRules { return RequestRules{handshake: handshakeRevisions()} }

// Check applies every rule, in order, to a POST with header h whose body
// is m, and returns the first it breaks. It reads the envelope m parsed
// once, and allocates nothing: the fast lane runs it on every call.
func (rs RequestRules) Check(h http.Header, m *Message) refusal {
	if m == nil || !m.Whole {
		return refusedPartial
	}
	if !jsonContent(h.Get("Content-Type")) {
		return refusedContentType
	}
	if !acceptsBoth(h.Values("Accept")) {
		return refusedAccept
	}
	if len(h["Last-Event-Id"]) > 0 {
		return refusedResume
	}
	version := h.Get(ProtocolVersionHeader)
	newRev := SessionlessRevision(version)
	if !newRev && version != "" && !slices.Contains(rs.handshake, version) {
		return refusedRevision
	}
	for k := range h {
		if strings.HasPrefix(k, "Mcp-Param-") {
			return refusedParamHeader
		}
	}
	e := m.RPC()
	if !e.strict() || !e.ParamsOK || !e.metaOK {
		return refusedEnvelope
	}
	if len(m.Body) > 2*sdkMaxDepth && nestsDeeper(m.Body, sdkMaxDepth) {
		return refusedNesting // the go-sdk refuses it whole (400)
	}
	return agrees(h, e, version, newRev)
}

// agrees holds the routing headers to the body, as the go-sdk does for a
// 2026-07-28 request (net/http has trimmed the values already; the go-sdk
// compares them as they are). A handshake-era request names no revision
// in its _meta and carries no routing header: the go-sdk reads those by
// rules of their own.
func agrees(h http.Header, e *RPC, version string, newRev bool) refusal {
	if !newRev {
		switch {
		case e.Revision != nil:
			return refusedMetaRev
		case len(h["Mcp-Method"]) > 0:
			return refusedMethod
		case len(h["Mcp-Name"]) > 0:
			return refusedName
		}
		return ""
	}
	switch method := h.Get("Mcp-Method"); {
	case !isString(e.Revision, version):
		return refusedMetaRev
	case !isString(e.Method, method):
		return refusedMethod
	case method == "tools/call" && !isString(e.Name, h.Get("Mcp-Name")):
		return refusedName
	}
	return ""
}

// isString reports whether raw is the JSON string s, written without
// escapes, without a copy.
func isString(raw []byte, s string) bool {
	n := len(raw)
	return n == len(s)+2 && raw[0] == '"' && raw[n-1] == '"' && string(raw[1:n-1]) == s && bytes.IndexByte(raw, '\\') < 0
}

// acceptsBoth reports whether Accept values list application/json and
// text/event-stream (or */*), as the go-sdk requires of a POST.
func acceptsBoth(values []string) bool {
	var jsonOK, streamOK bool
	for _, v := range values {
		for v != "" {
			var part string
			part, v, _ = strings.Cut(v, ",")
			mt, _, _ := strings.Cut(strings.TrimSpace(part), ";")
			switch strings.TrimSpace(mt) {
			case "application/json":
				jsonOK = true
			case "text/event-stream":
				streamOK = true
			case "*/*", "application/*":
				jsonOK = jsonOK || mt != "text/*"
				streamOK = streamOK || mt == "*/*"
			}
		}
	}
	return jsonOK && streamOK
}

// jsonContent reports whether a Content-Type value names JSON, as the
// go-sdk reads it: the bare type, as clients send it, without parsing.
func jsonContent(v string) bool {
	if v == "application/json" {
		return true
	}
	mt, _, err := mime.ParseMediaType(v)
	return err == nil && mt == "application/json"
}

// handshakeRevisions are the handshake-era revisions the go-sdk
// negotiates, from its own list, read once per lane.
func handshakeRevisions() []string {
	return slices.DeleteFunc(mcp.SupportedProtocolVersions(), engine.Sessionless)
}
