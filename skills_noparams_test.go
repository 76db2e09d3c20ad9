package vurb_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http/httptest"
	"strconv"
	"testing"

	"github.com/matryer/is"
	"github.com/vurb-go/vurb"
)

// oneSkillApp is an app with one tool and one skill.
func oneSkillApp() *vurb.App {
	app := vurb.New(vurb.WithLogger(slog.New(slog.DiscardHandler)))
	vurb.Query(app.Tool("ops"), "ok", func(context.Context, struct{}) (string, error) { return "fine", nil })
	vurb.Skill(app, "ops/deploy", "---\nname: deploy\ndescription: Deploy the service\n---\nRun scripts/deploy.sh.\n")
	return app
}

// JSON-RPC lets a request leave params out: the list methods answer one
// as tools/list does, and the methods that need an argument say which,
// over stdio and over HTTP, with no panic.
func TestSkillsMethodsTakeNoParams(t *testing.T) {
	cases := []struct {
		method string
		code   int // 0: a result
	}{
		{"tools/list", 0},
		{"resources/list", 0},
		{"skills/list", 0},
		{"skills/get", -32602},
		{"resources/directory/read", -32602},
	}
	t.Run("stdio", func(t *testing.T) {
		is := is.New(t)
		w, r := stdioServer(t, oneSkillApp())
		_, err := io.WriteString(w, stdioInit)
		is.NoErr(err)
		readAnswer(t, r)
		for i, tc := range cases {
			_, err = io.WriteString(w, `{"jsonrpc":"2.0","id":`+strconv.Itoa(i+1)+`,"method":"`+tc.method+`"}`+"\n")
			is.NoErr(err)
			a := readAnswer(t, r)
			switch {
			case tc.code == 0 && a.Error != nil:
				t.Errorf("%s without params: %d %s", tc.method, a.Error.Code, a.Error.Message)
			case tc.code != 0 && (a.Error == nil || a.Error.Code != tc.code):
				t.Errorf("%s without params: %+v; want error %d", tc.method, a, tc.code)
			}
		}
	})
	t.Run("HTTP session", func(t *testing.T) {
		srv := httptest.NewServer(oneSkillApp().HTTPHandler())
		defer srv.Close()
		init := rawPost(t, srv.URL, "", "2025-11-25", "", "", "",
			`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`)
		if init.session == "" {
			t.Fatalf("initialize: %d %s", init.status, init.body)
		}
		rawPost(t, srv.URL, "", "2025-11-25", init.session, "", "", `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
		for _, tc := range cases {
			got := rawPost(t, srv.URL, "", "2025-11-25", init.session, "", "", `{"jsonrpc":"2.0","id":1,"method":"`+tc.method+`"}`)
			var a rpcAnswer
			if err := json.Unmarshal(got.body, &a); err != nil {
				t.Errorf("%s without params: HTTP %d %s", tc.method, got.status, got.body)
				continue
			}
			switch {
			case tc.code == 0 && a.Error != nil:
				t.Errorf("%s without params: %d %s", tc.method, a.Error.Code, a.Error.Message)
			case tc.code != 0 && (a.Error == nil || a.Error.Code != tc.code):
				t.Errorf("%s without params: %+v; want error %d", tc.method, a, tc.code)
			}
		}
	})
}
