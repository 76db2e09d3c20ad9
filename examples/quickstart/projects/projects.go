// Package projects is the quickstart's server: a CRUD "projects" tool
// over an in-memory store. examples/quickstart serves it; so does
// examples/quickstart/otlp, with OpenTelemetry.
package projects

import (
	"context"
	"fmt"
	"sort"
	"sync"

	"github.com/vurb-go/vurb"
)

// Project is what the store holds.
type Project struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// Inputs: tags are the schema the model sees and the rules the server enforces.
type ListProjects struct {
	Limit *int `json:"limit,omitempty" validate:"omitempty,min=1,max=100" description:"Maximum number of projects to return"`
}

type CreateProject struct {
	Name string `json:"name" validate:"required,min=3,max=40" description:"Project name"`
}

type DeleteProject struct {
	ID string `json:"id" validate:"required" description:"ID of the project to delete"`
}

// Projects is an in-memory store, safe for concurrent use.
type Projects struct {
	mu   sync.Mutex
	next int
	byID map[string]Project
}

// ProjectList is the list handler's result: a struct, so clients also get
// structuredContent and an outputSchema.
type ProjectList struct {
	Projects []Project `json:"projects"`
}

func (s *Projects) List(_ context.Context, in ListProjects) (ProjectList, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := ProjectList{Projects: []Project{}}
	for _, p := range s.byID {
		out.Projects = append(out.Projects, p)
	}
	sort.Slice(out.Projects, func(i, j int) bool { return out.Projects[i].ID < out.Projects[j].ID })
	if in.Limit != nil && len(out.Projects) > *in.Limit {
		out.Projects = out.Projects[:*in.Limit]
	}
	return out, nil
}

func (s *Projects) Create(_ context.Context, in CreateProject) (Project, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.next++
	p := Project{ID: fmt.Sprintf("p%d", s.next), Name: in.Name}
	s.byID[p.ID] = p
	return p, nil
}

func (s *Projects) Delete(_ context.Context, in DeleteProject) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.byID[in.ID]; !ok {
		return "", fmt.Errorf("project %q not found; list projects to see their ids", in.ID)
	}
	delete(s.byID, in.ID)
	return "deleted " + in.ID, nil
}

// NewApp declares the server, with opts added to its own options (the
// quickstart with OpenTelemetry, examples/quickstart/otlp, passes
// vurbotel's). It is apart from main so that tests and that program can
// call it.
func NewApp(opts ...vurb.Option) *vurb.App {
	store := &Projects{byID: map[string]Project{}}
	app := vurb.New(append([]vurb.Option{vurb.WithName("quickstart"), vurb.WithVersion("1.0.0")}, opts...)...)
	vurb.Query(app, "projects.list", store.List).Describe("List projects")
	vurb.Action(app, "projects.create", store.Create).Describe("Create a project")
	vurb.Mutation(app, "projects.delete", store.Delete).Describe("Delete a project")
	return app
}
