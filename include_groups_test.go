package vurb_test

import (
	"testing"

	"github.com/matryer/is"
	"github.com/vurb-go/vurb"
)

// Tools and their groups are groups of the model as categories are, so
// WithIncludeGroups selects them by fully qualified name too.
func TestIncludeGroupsSelectsToolsAndTheirGroups(t *testing.T) {
	is := is.New(t)
	f := newFixture()
	is.Equal(listNames(t, connect(t, f, nil, vurb.WithIncludeGroups("admin.users"))),
		[]string{"admin_users_ban", "admin_users_create", "admin_users_list"})
	is.Equal(listNames(t, connect(t, f, nil, vurb.WithIncludeGroups("projects"))),
		[]string{"projects_create", "projects_delete", "projects_list"})
	is.Equal(len(listNames(t, connect(t, f, nil, vurb.WithExcludeGroups("admin")))), 3)
}
