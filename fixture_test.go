package vurb_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/vurb-go/vurb"
)

// The fixture app: a flat CRUD tool with a common struct, and a
// hierarchical admin tool of three groups and nine actions.

type Workspace struct {
	WorkspaceID string `json:"workspace_id" validate:"required" description:"Workspace the projects belong to"`
}

type ListProjects struct {
	Workspace
	Limit *int `json:"limit,omitempty" validate:"omitempty,min=1,max=100" description:"Page size"`
}

type CreateProject struct {
	Workspace
	Name string `json:"name" validate:"required,min=3,max=40" description:"Project name"`
}

type DeleteProject struct {
	Workspace
	ID string `json:"id" validate:"required" description:"Project ID"`
}

type Project struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

type ProjectList struct {
	Projects []Project `json:"projects"`
}

type UserRef struct {
	UserID string `json:"user_id" validate:"required" description:"User ID"`
}

type ListUsers struct {
	Query string `json:"query,omitempty" description:"Search text"`
}

type CreateUser struct {
	Email string `json:"email" validate:"required,email" description:"Email address"`
	Role  string `json:"role,omitempty" validate:"omitempty,oneof=admin member" description:"Role"`
}

type Refund struct {
	InvoiceID string `json:"invoice_id" validate:"required" description:"Invoice to refund"`
	Amount    *int   `json:"amount,omitempty" validate:"omitempty,min=1" description:"Amount in cents"`
}

type Invoices struct {
	UserID string `json:"user_id,omitempty" description:"Only this user's invoices"`
}

type AuditQuery struct {
	Since string `json:"since,omitempty" validate:"omitempty,datetime=2006-01-02" description:"First day"`
}

func listProjects(ctx context.Context, in ListProjects) (ProjectList, error) {
	return ProjectList{Projects: []Project{{ID: "p1", Name: "Apollo"}}}, nil
}

func createProject(ctx context.Context, in CreateProject) (Project, error) {
	return Project{ID: "p2", Name: in.Name}, nil
}

func deleteProject(ctx context.Context, in DeleteProject) (string, error) {
	if in.ID == "missing" {
		return "", errors.New("project missing not found")
	}
	return fmt.Sprintf("deleted %s", in.ID), nil
}

func ok[In any](text string) func(context.Context, In) (string, error) {
	return func(context.Context, In) (string, error) { return text, nil }
}

// newFixture builds the fixture app with opts.
func newFixture(opts ...vurb.Option) *vurb.App {
	f := vurb.New(append([]vurb.Option{vurb.WithName("fixture"), vurb.WithVersion("1.0.0")}, opts...)...)

	projects := f.Tool("projects").Describe("Manage projects.").Common(Workspace{}).Tags("projects")
	vurb.Query(projects, "list", listProjects).Describe("List projects in a workspace").Tags("public")
	vurb.Action(projects, "create", createProject).Describe("Create a project")
	vurb.Mutation(projects, "delete", deleteProject).Describe("Delete a project")

	admin := f.Tool("admin").Describe("SaaS administration panel.").Tags("admin")
	users := admin.Group("users", "User lifecycle management")
	vurb.Query(users, "list", ok[ListUsers]("users")).Describe("List users")
	vurb.Action(users, "create", ok[CreateUser]("created")).Describe("Invite a user")
	vurb.Mutation(users, "ban", ok[UserRef]("banned")).Describe("Ban a user")
	billing := admin.Group("billing", "Invoices and refunds")
	vurb.Query(billing, "invoices", ok[Invoices]("invoices")).Idempotent()
	vurb.Mutation(billing, "refund", ok[Refund]("refunded")).Describe("Refund an invoice")
	vurb.Query(billing, "balance", ok[UserRef]("0"))
	audit := admin.Group("audit", "Audit trail")
	vurb.Query(audit, "events", ok[AuditQuery]("events")).Describe("List audit events")
	vurb.Query(audit, "export", ok[AuditQuery]("export")).OpenWorld(true)
	vurb.Mutation(audit, "purge", ok[struct{}]("purged"))
	return f
}
