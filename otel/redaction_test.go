package vurbotel_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/vurbtest"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

// The vault fixture: every value a call may not repeat holds vaultSecret,
// which no other text holds: the entry's secret (a redact tag on the
// output), the passphrase and the PIN sent (redact tags on the input).

const vaultSecret = "7373737373"

type vaultEntry struct {
	Name   string `json:"name"`
	Secret string `json:"secret" redact:"true"`
}

type vaultOpen struct {
	Name       string `json:"name" validate:"required"`
	PIN        *int32 `json:"pin,omitempty" redact:"true"`
	Passphrase string `json:"passphrase,omitempty" redact:"true"`
}

// vaultCalls are the arguments of the calls every path makes: one that
// succeeds, two the validation refuses for the PIN (which its messages
// would echo), one whose handler fails with an error saying nothing of
// the secret, one whose handler panics.
var vaultCalls = [][2]string{
	{"vault_open", `{"name":"home","passphrase":"pass-` + vaultSecret + `"}`},
	{"vault_open", `{"name":"home","pin":` + vaultSecret + `}`},
	{"vault_open", `{"name":"home","pin":` + vaultSecret + `.5}`},
	{"vault_fail", `{"name":"home","passphrase":"pass-` + vaultSecret + `"}`},
	{"vault_boom", `{"name":"home","passphrase":"pass-` + vaultSecret + `"}`},
}

// String is everything written, for a search.
func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// vaultApp is the fixture's app, instrumented on tel, logging every line
// at Debug as JSON to logs. Its handlers log their input and start a span
// of their own, as a handler would.
func vaultApp(tel *telemetry, logs *lockedBuffer) *vurb.App {
	logger := slog.New(slog.NewJSONHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	app := vurb.New(append(tel.options(), vurb.WithName("vault"), vurb.WithLogger(logger))...)
	open := func(ctx context.Context, in vaultOpen) (vaultEntry, error) {
		vurb.Logger(ctx).Debug("opening", "name", in.Name)
		return vaultEntry{Name: in.Name, Secret: "entry-" + vaultSecret}, nil
	}
	vurb.Query(app, "vault.open", open)
	vurb.Query(app, "vault.later", open).Task()
	vurb.Action(app, "vault.fail", func(context.Context, vaultOpen) (vaultEntry, error) {
		return vaultEntry{}, errors.New("the vault is sealed")
	})
	vurb.Action(app, "vault.boom", func(context.Context, vaultOpen) (vaultEntry, error) {
		panic("the vault caught fire")
	})
	return app
}

// spansText is every recorded span written out: name, status, attributes,
// events and their attributes, links and theirs.
func spansText(spans []sdktrace.ReadOnlySpan) string {
	var b strings.Builder
	for _, s := range spans {
		fmt.Fprintf(&b, "%s status=%v %q\n", s.Name(), s.Status().Code, s.Status().Description)
		for _, kv := range s.Attributes() {
			fmt.Fprintf(&b, "  %s=%s\n", kv.Key, kv.Value.Emit())
		}
		for _, e := range s.Events() {
			fmt.Fprintf(&b, "  event %s\n", e.Name)
			for _, kv := range e.Attributes {
				fmt.Fprintf(&b, "    %s=%s\n", kv.Key, kv.Value.Emit())
			}
		}
		for _, l := range s.Links() {
			for _, kv := range l.Attributes {
				fmt.Fprintf(&b, "  link %s=%s\n", kv.Key, kv.Value.Emit())
			}
		}
	}
	return b.String()
}

// rpc posts one 2026-07-28 JSON-RPC request to h, as JSON (the fast
// lane), declaring caps, and returns the answer's JSON.
func rpc(t *testing.T, h http.Handler, caps, method, name, params string) string {
	t.Helper()
	body := `{"jsonrpc":"2.0","id":1,"method":"` + method + `","params":{` + params +
		`,"_meta":{"io.modelcontextprotocol/protocolVersion":"` + vurbtest.Sessionless +
		`","io.modelcontextprotocol/clientCapabilities":` + caps + `}}}`
	req := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", vurbtest.Sessionless)
	req.Header.Set("Mcp-Method", method)
	if name != "" {
		req.Header.Set("Mcp-Name", name)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	return w.Body.String()
}

const tasksCaps = `{"extensions":{"io.modelcontextprotocol/tasks":{}}}`

// TestRedactedValuesNeverRecorded: on every path a call can take (in
// process, a go-sdk client in memory, over HTTP in a session and
// sessionless, JSON-RPC posted to the fast lane, a task), whether it
// succeeds, is refused by validation, fails or panics, no value a redact
// tag covers reaches a span's name, status, attributes, events or links,
// nor a line of the log (vurb's own, at Debug, and the handler's, both
// carrying the span's ids).
func TestRedactedValuesNeverRecorded(t *testing.T) {
	paths := []struct {
		name string
		run  func(t *testing.T, app *vurb.App) []string // the answers
	}{
		{"in-process", func(t *testing.T, app *vurb.App) (answers []string) {
			for _, c := range vaultCalls {
				res, err := app.Call(context.Background(), c[0], json.RawMessage(c[1]))
				data, _ := json.Marshal(res)
				answers = append(answers, string(data)+fmt.Sprint(err))
			}
			return answers
		}},
		{"memory", clientPath()},
		{"http session", clientPath(vurbtest.OverHTTP())},
		{"http sessionless", clientPath(vurbtest.OverHTTP(), vurbtest.Protocol(vurbtest.Sessionless))},
		{"http fast lane", func(t *testing.T, app *vurb.App) (answers []string) {
			h := app.HTTPHandler()
			for _, c := range vaultCalls {
				answers = append(answers, rpc(t, h, `{}`, "tools/call", c[0], `"name":"`+c[0]+`","arguments":`+c[1]))
			}
			return answers
		}},
		{"task", func(t *testing.T, app *vurb.App) (answers []string) {
			h := app.HTTPHandler()
			for _, args := range []string{vaultCalls[0][1], vaultCalls[1][1]} {
				answer := rpc(t, h, tasksCaps, "tools/call", "vault_later", `"name":"vault_later","arguments":`+args)
				answers = append(answers, answer)
				var created struct {
					Result struct {
						ResultType string `json:"resultType"`
						TaskID     string `json:"taskId"`
					} `json:"result"`
				}
				_ = json.Unmarshal([]byte(answer), &created)
				if created.Result.ResultType != "task" {
					continue // refused before it started
				}
				deadline := time.Now().Add(5 * time.Second)
				for {
					got := rpc(t, h, tasksCaps, "tasks/get", created.Result.TaskID, `"taskId":"`+created.Result.TaskID+`"`)
					if strings.Contains(got, `"completed"`) || time.Now().After(deadline) {
						answers = append(answers, got)
						break
					}
					time.Sleep(5 * time.Millisecond)
				}
			}
			return answers
		}},
	}
	for _, p := range paths {
		t.Run(p.name, func(t *testing.T) {
			is := is.New(t)
			tel := newTelemetry(t)
			logs := &lockedBuffer{}
			answers := p.run(t, vaultApp(tel, logs))
			_ = tel.tp.ForceFlush(context.Background())
			time.Sleep(20 * time.Millisecond) // a server span ends after its answer is written
			spans := spansText(tel.spans.Ended())
			noVaultSecret(t, "the spans", spans)
			noVaultSecret(t, "the log", logs.String())
			for _, a := range answers {
				noVaultSecret(t, "an answer", a)
			}
			// The refused calls were recorded, as refused.
			is.True(strings.Contains(spans, "error.type=validation"))
			is.True(strings.Contains(strings.Join(answers, "\n"), "[redacted]"))
		})
	}
}

// clientPath calls through a go-sdk client made with opts.
func clientPath(opts ...vurbtest.Option) func(t *testing.T, app *vurb.App) []string {
	return func(t *testing.T, app *vurb.App) (answers []string) {
		c := vurbtest.New(t, app, opts...)
		for _, call := range vaultCalls {
			res, err := c.CallResult(call[0], json.RawMessage(call[1]))
			data, _ := json.Marshal(res)
			answers = append(answers, string(data)+fmt.Sprint(err))
		}
		return answers
	}
}

// noVaultSecret fails when text holds the fixture's secret.
func noVaultSecret(t *testing.T, where, text string) {
	t.Helper()
	if i := strings.Index(text, vaultSecret); i >= 0 {
		t.Fatalf("%s holds a redacted value: …%s…", where, text[max(0, i-80):min(len(text), i+40)])
	}
}
