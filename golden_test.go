package vurb_test

import (
	"path/filepath"
	"testing"

	"github.com/matryer/is"
	"github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/vurbtest"
)

// TestToolsListGolden pins the exact tools/list a client receives, in both
// expositions. The golden files are reviewed by hand when they change;
// VURBTEST_UPDATE=1 go test -run TestToolsListGolden rewrites them.
func TestToolsListGolden(t *testing.T) {
	for _, tc := range []struct {
		name string
		exp  vurb.Exposition
	}{
		{"tools_flat.golden.json", vurb.Flat},
		{"tools_grouped.golden.json", vurb.Grouped},
	} {
		t.Run(tc.exp.String(), func(t *testing.T) {
			vurbtest.Golden(t, filepath.Join("testdata", tc.name), newFixture(vurb.WithExposition(tc.exp)))
		})
	}
}

// golden compares got with testdata/name, or rewrites it under
// VURBTEST_UPDATE=1.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	vurbtest.GoldenFile(t, filepath.Join("testdata", name), got)
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
