package vurb_test

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/matryer/is"
	"github.com/vurb-go/vurb"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// golden compares got with testdata/name, or rewrites it under -update. The
// golden files are reviewed by hand when they change: they are the exact
// tools/list a client receives.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -run %s -update to create it)", err, t.Name())
	}
	if string(want) != string(got) {
		t.Errorf("tools/list differs from %s:\n got: %s\nwant: %s", path, got, want)
	}
}

func toolsJSON(t *testing.T, f *vurb.App) []byte {
	t.Helper()
	data, err := json.MarshalIndent(map[string]any{"tools": f.Tools()}, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return append(data, '\n')
}

func TestToolsListGolden(t *testing.T) {
	for _, tc := range []struct {
		name string
		exp  vurb.Exposition
	}{
		{"tools_flat.golden.json", vurb.Flat},
		{"tools_grouped.golden.json", vurb.Grouped},
	} {
		t.Run(tc.exp.String(), func(t *testing.T) {
			golden(t, tc.name, toolsJSON(t, newFixture(vurb.WithExposition(tc.exp))))
		})
	}
}

func TestToolNamesPerExposition(t *testing.T) {
	is := is.New(t)
	names := func(f *vurb.App) (out []string) {
		for _, tool := range f.Tools() {
			out = append(out, tool.Name)
		}
		return out
	}
	is.Equal(names(newFixture()), []string{
		"projects_list", "projects_create", "projects_delete",
		"admin_users_list", "admin_users_create", "admin_users_ban",
		"admin_billing_invoices", "admin_billing_refund", "admin_billing_balance",
		"admin_audit_events", "admin_audit_export", "admin_audit_purge",
	})
	is.Equal(names(newFixture(vurb.WithExposition(vurb.Grouped))), []string{"projects", "admin"})
	is.Equal(names(newFixture(vurb.WithSeparator("."))), []string{
		"projects.list", "projects.create", "projects.delete",
		"admin.users.list", "admin.users.create", "admin.users.ban",
		"admin.billing.invoices", "admin.billing.refund", "admin.billing.balance",
		"admin.audit.events", "admin.audit.export", "admin.audit.purge",
	})
}
