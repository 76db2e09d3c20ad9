package vurb

// IncludeGroups exposes only the actions in at least one of the categories
// named by their fully qualified names ("user-facing",
// "platform.users"), a category's descendants included. It is tag
// selection: a category gives each member it holds the tag
// "group:<fqn>" (and its ancestors'), so it combines with IncludeTags as
// tags do: an action passes when it carries any included tag or group.
// Prompts and resources, which tag filters do not hide, are not hidden
// either.
func IncludeGroups(fqns ...string) ServeOption { return IncludeTags(groupTags(fqns)...) }

// ExcludeGroups hides every action in any of the categories named, whatever
// IncludeGroups and IncludeTags say.
func ExcludeGroups(fqns ...string) ServeOption { return ExcludeTags(groupTags(fqns)...) }

func groupTags(fqns []string) []string {
	out := make([]string, len(fqns))
	for i, f := range fqns {
		out[i] = groupTagPrefix + f
	}
	return out
}
