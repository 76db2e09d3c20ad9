package vurb_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/matryer/is"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/vurbtest"
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

// vaultCalls are the calls every path makes: one that succeeds, two the
// validation refuses for the PIN (which the messages would echo), one
// whose handler fails with an error saying nothing of the secret, one
// whose handler panics.
var vaultCalls = []struct {
	name, tool, args string
	fails            bool
}{
	{"ok", "vault_open", `{"name":"home","passphrase":"pass-` + vaultSecret + `"}`, false},
	{"pin out of range", "vault_open", `{"name":"home","pin":` + vaultSecret + `}`, true},
	{"pin not an integer", "vault_open", `{"name":"home","pin":` + vaultSecret + `.5}`, true},
	{"handler error", "vault_fail", `{"name":"home","passphrase":"pass-` + vaultSecret + `"}`, true},
	{"handler panic", "vault_boom", `{"name":"home","passphrase":"pass-` + vaultSecret + `"}`, true},
}

// vaultApp is the fixture's app, logging every line, at Debug, as JSON to
// logs; opts come after.
func vaultApp(logs io.Writer, opts ...vurb.Option) *vurb.App {
	logger := slog.New(slog.NewJSONHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	app := vurb.New(append([]vurb.Option{vurb.WithLogger(logger)}, opts...)...)
	open := func(_ context.Context, in vaultOpen) (vaultEntry, error) {
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

// vaultPath makes one call its own way and returns everything the client
// received, and whether the call failed.
type vaultPath struct {
	name string
	call func(t *testing.T, app *vurb.App) func(tool, args string) (wire string, failed bool)
}

// vaultPaths are the ways a call reaches the app: in process, a go-sdk
// client in memory, a go-sdk client over HTTP in a handshake-era session
// and sessionless, and sessionless JSON-RPC posted by hand (the fast
// lane, answered as JSON).
func vaultPaths() []vaultPath {
	client := func(opts ...vurbtest.Option) func(t *testing.T, app *vurb.App) func(string, string) (string, bool) {
		return func(t *testing.T, app *vurb.App) func(string, string) (string, bool) {
			c := vurbtest.New(t, app, opts...)
			return func(tool, args string) (string, bool) {
				res, err := c.CallResult(tool, json.RawMessage(args))
				if err != nil {
					return err.Error(), true
				}
				return wireJSON(t, res), res.IsError
			}
		}
	}
	return []vaultPath{
		{"in-process", func(t *testing.T, app *vurb.App) func(string, string) (string, bool) {
			return func(tool, args string) (string, bool) {
				res, err := app.Call(context.Background(), tool, json.RawMessage(args))
				if err != nil {
					return err.Error(), true
				}
				return wireJSON(t, res), res.IsError
			}
		}},
		{"memory", client()},
		{"http session", client(vurbtest.OverHTTP())},
		{"http sessionless", client(vurbtest.OverHTTP(), vurbtest.Protocol(vurbtest.Sessionless))},
		{"http fast lane", func(t *testing.T, app *vurb.App) func(string, string) (string, bool) {
			srv := httptest.NewServer(app.HTTPHandler())
			t.Cleanup(srv.Close)
			return func(tool, args string) (string, bool) {
				out, status, err := postJSONRPC(srv.URL, "", vurbtest.Sessionless, "tools/call", tool,
					`{"name":"`+tool+`","arguments":`+args+`,"_meta":{"io.modelcontextprotocol/protocolVersion":"`+
						vurbtest.Sessionless+`","io.modelcontextprotocol/clientCapabilities":{}}}`)
				if err != nil {
					t.Fatalf("%s: %d %v", tool, status, err)
				}
				if out.Error != nil {
					return out.Error.Error(), true
				}
				var res mcp.CallToolResult
				if err := json.Unmarshal(out.Result, &res); err != nil {
					t.Fatal(err)
				}
				return string(out.Result), res.IsError
			}
		}},
	}
}

// noVaultSecret fails when text holds the fixture's secret.
func noVaultSecret(t *testing.T, where, text string) {
	t.Helper()
	if i := strings.Index(text, vaultSecret); i >= 0 {
		t.Fatalf("%s holds a redacted value: …%s…", where, text[max(0, i-80):min(len(text), i+40)])
	}
}

// TestRedactedValuesNeverLogged: on every path a call can take, whether
// it succeeds, is refused by validation, fails or panics, no value a
// redact tag covers (in its output or in its input) reaches the answer or
// a line of vurb's log, even at Debug; the validation message says which
// field is wrong without repeating what was sent in it.
func TestRedactedValuesNeverLogged(t *testing.T) {
	for _, p := range vaultPaths() {
		t.Run(p.name, func(t *testing.T) {
			is := is.New(t)
			logs := &syncBuffer{}
			call := p.call(t, vaultApp(logs))
			for _, c := range vaultCalls {
				wire, failed := call(c.tool, c.args)
				is.Equal(failed, c.fails) // c.name
				noVaultSecret(t, p.name+" "+c.name+": the answer", wire)
			}
			wire, _ := call("vault_open", `{"name":"home","pin":`+vaultSecret+`}`)
			is.True(strings.Contains(wire, "pin: [redacted] is out of range for int32"))
			noVaultSecret(t, p.name+": the log", logs.String())
			is.True(strings.Contains(logs.String(), "the vault caught fire")) // the log was written
		})
	}
}

// TestRedactedValuesNeverLoggedByTasks: a call run as a task (2026-07-28
// over HTTP) completes with its output redacted, and a task refused by
// validation echoes nothing; the log holds neither.
func TestRedactedValuesNeverLoggedByTasks(t *testing.T) {
	is := is.New(t)
	logs := &syncBuffer{}
	h := vaultApp(logs).HTTPHandler()
	_, resp := taskRPC(t, h, tasksCaps, "tools/call", "vault_later",
		`"name":"vault_later","arguments":{"name":"home","passphrase":"pass-`+vaultSecret+`"}`)
	created := result(t, resp)
	is.Equal(created["resultType"], "task")
	done := waitTask(t, h, created["taskId"].(string), "completed")
	data, err := json.Marshal(done)
	is.NoErr(err)
	noVaultSecret(t, "the task", string(data))
	is.True(strings.Contains(string(data), `[redacted]`))

	_, resp = taskRPC(t, h, tasksCaps, "tools/call", "vault_later", `"name":"vault_later","arguments":{"name":"home","pin":`+vaultSecret+`}`)
	data, err = json.Marshal(resp)
	is.NoErr(err)
	noVaultSecret(t, "the refused task", string(data))
	is.True(strings.Contains(string(data), "pin: [redacted] is out of range for int32"))
	noVaultSecret(t, "the log", logs.String())
}
